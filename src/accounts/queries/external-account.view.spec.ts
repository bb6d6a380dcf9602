import { externalAccountDecider } from '../domain/external-account/external-account.decider';
import { ExternalAccountCreated } from '../domain/external-account/external-account.events';
import { externalAccountView } from './external-account.view';

/** Events stored before the reference's names still fold, and read under the wire names. */
describe('external account view of stored events', () => {
  const created = (accountInfo: Record<string, unknown>): ExternalAccountCreated => ({
    type: 'ExternalAccountCreated',
    data: {
      externalAccountId: 'ExternalAccount:0195f0a0-0000-7000-8000-000000000001',
      platformId: 'Platform:0195f0a0-0000-7000-8000-000000000002',
      customerId: 'Customer:0195f0a0-0000-7000-8000-000000000003',
      currency: 'MXN',
      platformAccountId: null,
      accountInfo: accountInfo as ExternalAccountCreated['data']['accountInfo'],
      primaryIdentifier: '032180000118359719',
      beneficiaryVerification: null,
      createdAt: '2025-01-01T00:00:00.000Z',
    },
  });
  const fold = (event: ExternalAccountCreated) => {
    const state = externalAccountDecider.evolve(externalAccountDecider.initialState(), event);
    if (state.status === 'none') throw new Error('not created');
    return externalAccountView(state);
  };

  it('maps MXN clabe to clabeNumber, a BUSINESS fullName to legalName, and drops stored nulls', () => {
    const view = fold(created({
      accountType: 'MXN_ACCOUNT',
      identifiers: { clabe: '032180000118359719', bankName: 'BBVA' },
      paymentRails: ['SPEI'],
      beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Acme SA', birthDate: null, nationality: null, email: null, address: { line1: '1', line2: null, city: 'CDMX', state: null, postalCode: '01000', country: 'MX' } },
    }));
    expect(view.accountInfo).toEqual({
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '032180000118359719',
      bankName: 'BBVA',
      paymentRails: ['SPEI'],
      beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme SA', address: { line1: '1', city: 'CDMX', postalCode: '01000', country: 'MX' } },
    });
    expect(view.defaultUmaDepositAccount).toBe(false);
    expect(view).not.toHaveProperty('ownershipType');
  });

  it('maps USD accountCategory to bankAccountType and derives a stored PIX key type', () => {
    const usd = fold(created({ accountType: 'USD_ACCOUNT', identifiers: { accountNumber: '1', routingNumber: '021000021', accountCategory: 'SAVINGS' }, paymentRails: ['ACH'], beneficiary: null }));
    expect(usd.accountInfo).toEqual({ accountType: 'USD_ACCOUNT', accountNumber: '1', routingNumber: '021000021', bankAccountType: 'SAVINGS', paymentRails: ['ACH'] });
    const brl = fold(created({ accountType: 'BRL_ACCOUNT', identifiers: { pixKey: 'jane@example.com' }, paymentRails: ['PIX'], beneficiary: null }));
    expect(brl.accountInfo).toEqual({ accountType: 'BRL_ACCOUNT', pixKey: 'jane@example.com', pixKeyType: 'EMAIL', paymentRails: ['PIX'] });
  });
});
