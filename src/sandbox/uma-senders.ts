import { DomainError } from '../infra/domain/domain-error';
import { resolveSandboxUmaReceiver } from './uma-addresses';

/**
 * The sandbox's payers on another VASP, for `POST /sandbox/uma/receive`. The same test addresses
 * as the receivers (uma-addresses.ts) name how the payment behaves once the platform approved it:
 *   $success.<cur>@sandbox.uma.money          credited at once
 *   $pending.long.<cur>@sandbox.uma.money     credited after the long-payment delay (~6 minutes)
 *   $fail.compliance.<cur>@sandbox.uma.money  refused by compliance after approval (COMPLIANCE_REJECTED),
 *                                              the payer refunded
 * `<cur>` is the payer's currency. Other well-formed addresses: 404 UMA_NOT_FOUND; malformed: 400.
 */
export interface SandboxUmaSender {
  address: string;
  currency: string;
  behaviour: 'SUCCESS' | 'PENDING_LONG' | 'FAIL_COMPLIANCE';
}

export function resolveSandboxUmaSender(text: unknown): SandboxUmaSender {
  try {
    const { address, currency, kind } = resolveSandboxUmaReceiver(text);
    return { address, currency, behaviour: kind };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'INVALID_UMA_ADDRESS') {
      throw new DomainError('INVALID_UMA_ADDRESS', 'senderUmaAddress must look like $user@domain.com', {
        errors: [{ field: 'senderUmaAddress', constraint: { format: 'uma-address' }, message: 'senderUmaAddress must look like $user@domain.com' }],
      });
    }
    if (error instanceof DomainError && error.code === 'UMA_NOT_FOUND') throw new DomainError('UMA_NOT_FOUND', `No sandbox payer answers at ${String(text)}`);
    throw error;
  }
}

/**
 * Everything the sandbox payer's VASP knows about its payer (the reference's CustomerInfoFieldName).
 * It sends the first three with every payment and the rest when the receiving platform asks (422);
 * fields it does not hold (tax and company identifiers, identity documents) it cannot supply.
 */
function payerProfile(sender: string): Record<string, unknown> {
  return {
    FULL_NAME: 'Sandbox Payer',
    BIRTH_DATE: '1985-06-15',
    NATIONALITY: 'US',
    COUNTRY_OF_RESIDENCE: 'US',
    EMAIL: 'payer@sandbox.uma.money',
    PHONE_NUMBER: '+14155550100',
    POSTAL_ADDRESS: { line1: '1 Sandbox Way', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
    USER_TYPE: 'INDIVIDUAL',
    ACCOUNT_IDENTIFIER: sender,
    IDENTIFIER: sender,
    FI_LEGAL_ENTITY_NAME: 'Sandbox UMA VASP',
    FI_ADDRESS: '1 Sandbox Way, San Francisco, CA 94105, US',
    ULTIMATE_INSTITUTION_COUNTRY: 'US',
    PURPOSE_OF_PAYMENT: 'GIFT',
  };
}

const SENT_WITH_EVERY_PAYMENT = ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY'];

export function initialPayerData(sender: string): Record<string, unknown> {
  const profile = payerProfile(sender);
  return Object.fromEntries(SENT_WITH_EVERY_PAYMENT.map((field) => [field, profile[field]]));
}

/** The payer's values for `fields`, or null when the payer's VASP cannot supply one of them. */
export function payerDataFor(sender: string, fields: string[]): Record<string, unknown> | null {
  const profile = payerProfile(sender);
  if (!fields.every((field) => Object.prototype.hasOwnProperty.call(profile, field))) return null;
  return Object.fromEntries(fields.map((field) => [field, profile[field]]));
}

/**
 * What the payer's VASP asks about the receiver (the webhook's `requestedReceiverCustomerInfoFields`):
 * only what the customer's record lacks, as the reference says. Individuals: NATIONALITY
 * (mandatory); everyone: POSTAL_ADDRESS (optional).
 */
export function requestedReceiverFields(receiver: { individual: boolean; hasNationality: boolean; hasAddress: boolean }): Array<{ name: string; mandatory: boolean }> {
  const fields: Array<{ name: string; mandatory: boolean }> = [];
  if (receiver.individual && !receiver.hasNationality) fields.push({ name: 'NATIONALITY', mandatory: true });
  if (!receiver.hasAddress) fields.push({ name: 'POSTAL_ADDRESS', mandatory: false });
  return fields;
}
