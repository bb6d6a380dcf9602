import { DomainError } from '../../../infra/domain/domain-error';
import { EndUserTermsConsent } from './customer.events';

/**
 * The End User Terms versions the service has published, oldest first; the last is current
 * (`GET /customers/end-user-terms`). A consent may name any published version: it records the
 * text the end user saw when accepting. The texts are hosted at `url`, outside this service.
 */
export const END_USER_TERMS_VERSIONS: ReadonlyArray<{ version: string; url: string }> = [
  { version: '2025-09', url: 'https://legal.payments.local/end-user-terms/2025-09' },
  { version: '2025-10-13', url: 'https://legal.payments.local/end-user-terms/2025-10-13' },
];

export function currentEndUserTerms(): { version: string; url: string } {
  return END_USER_TERMS_VERSIONS[END_USER_TERMS_VERSIONS.length - 1];
}

/** 400 END_USER_TERMS_VERSION_NOT_FOUND for a consent to a version never published. */
export function assertKnownTermsVersion(consent: EndUserTermsConsent | null | undefined): void {
  if (!consent || END_USER_TERMS_VERSIONS.some((terms) => terms.version === consent.termsVersion)) return;
  throw new DomainError('END_USER_TERMS_VERSION_NOT_FOUND', `End User Terms version ${consent.termsVersion} does not exist`, {
    errors: [
      {
        field: 'endUserTermsConsent.termsVersion',
        constraint: { enum: END_USER_TERMS_VERSIONS.map((terms) => terms.version) },
        message: `termsVersion must be one of ${END_USER_TERMS_VERSIONS.map((terms) => terms.version).join(', ')}`,
      },
    ],
  });
}

/**
 * 403 END_USER_TERMS_NOT_ACCEPTED: on an unregulated platform a customer moves money only once the
 * platform has recorded the customer's acceptance of the End User Terms (`endUserTermsConsent`, on
 * creation or a later PATCH). A regulated platform carries its own terms; platforms registered
 * before the setting existed are regulated.
 */
export function assertEndUserTermsAccepted(
  platform: { isRegulatedFinancialInstitution?: boolean },
  customer: { id: string; endUserTermsConsent?: EndUserTermsConsent | null },
): void {
  if (platform.isRegulatedFinancialInstitution !== false || customer.endUserTermsConsent) return;
  throw new DomainError('END_USER_TERMS_NOT_ACCEPTED', 'The customer has not accepted the End User Terms', {
    customerId: customer.id,
    termsVersion: currentEndUserTerms().version,
  });
}
