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
