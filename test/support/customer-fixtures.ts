import { ibanRemainder, clabeCheckDigit } from '../../src/accounts/domain/external-account/account-identifiers';
import { PlatformClient } from './test-app';

/**
 * Fixtures for tests that need customers, funded internal accounts and external accounts,
 * all created through the public HTTP API.
 */
let counter = 0;
export function uniqueId(prefix = 'pc'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export async function createIndividual(api: PlatformClient, fields: Record<string, unknown> = {}): Promise<any> {
  const response = await api
    .post('/customers')
    .send({ customerType: 'INDIVIDUAL', platformCustomerId: uniqueId(), fullName: 'Jane Doe', email: 'jane@example.com', ...fields });
  if (response.status !== 201) throw new Error(`createIndividual: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A beneficial owner with every field the contract's owner requires (the sandbox reads lastName's last 3 characters). */
export function beneficialOwner(lastName: string, personalInfo: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    personalInfo: {
      firstName: 'Ann', lastName, birthDate: '1980-02-03', nationality: 'US', idType: 'SSN', identifier: '123-45-6789',
      address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      ...personalInfo,
    },
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 60,
  };
}

export async function createBusiness(api: PlatformClient, fields: Record<string, unknown> = {}): Promise<any> {
  const response = await api.post('/customers').send({
    customerType: 'BUSINESS',
    platformCustomerId: uniqueId('biz'),
    businessInfo: { legalName: 'Acme Corp', registrationNumber: 'REG-999' },
    ...fields,
  });
  if (response.status !== 201) throw new Error(`createBusiness: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The customer's internal accounts by currency code. */
export async function accountsByCurrency(api: PlatformClient, customerId: string): Promise<Record<string, any>> {
  const response = await api.get('/customers/internal-accounts').query({ customerId }).expect(200);
  return Object.fromEntries(response.body.data.map((account: any) => [account.balance.currency.code, account]));
}

export async function fund(api: PlatformClient, accountId: string, amount: number): Promise<any> {
  const response = await api.post(`/sandbox/internal-accounts/${accountId}/fund`).send({ amount });
  if (response.status !== 200) throw new Error(`fund: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A USD external account whose account number ends in `suffix` (the sandbox scenario). */
export async function createUsdExternalAccount(api: PlatformClient, customerId: string, suffix = '789', extra: Record<string, unknown> = {}): Promise<any> {
  const response = await api.post('/customers/external-accounts').send({
    customerId,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: `123456${suffix}`,
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
      ...extra,
    },
  });
  if (response.status !== 201) throw new Error(`createUsdExternalAccount: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A valid German IBAN whose last three digits are `suffix`. */
export function germanIban(suffix: string): string {
  const bban = `37040044053201${suffix.padStart(3, '0').slice(-3)}0`.slice(0, 18);
  const body = `${bban.slice(0, 15)}${suffix}`;
  const check = 98 - ibanRemainder(`${body}DE00`);
  return `DE${String(check).padStart(2, '0')}${body}`;
}

/** A valid CLABE ending in the check digit; its 15-17th digits are free. */
export function clabe(first17 = '03218000011835971'): string {
  return first17 + clabeCheckDigit(first17);
}
