import { namedIn } from './related-resources';
import { labelOf } from './resource-labels';

const CUSTOMER = 'Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21';
const ACCOUNT = 'InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57';
const PLATFORM = 'Platform:0199f5c2-3a10-7b8e-9c4d-5e6f7a8b9c0d';
const QUOTE = 'Quote:019a4a17-d638-7a41-9c5e-3f0b2d8e6a17';

describe('labelOf', () => {
  it('names a resource by its name and ids, then its kind, status and amount', () => {
    expect(labelOf('Customer', { id: CUSTOMER, fullName: 'Jane Doe', platformCustomerId: 'pc-1', kycStatus: 'APPROVED' })).toBe('Customer · Jane Doe · pc-1');
    expect(labelOf('Customer', { customerType: 'BUSINESS', businessInfo: { legalName: 'Acme Ltd' }, platformCustomerId: 'pc-2' })).toBe('Customer · Acme Ltd · pc-2');
    expect(labelOf('Transaction', { type: 'OUTGOING', status: 'COMPLETED', sentAmount: { amount: 10000, currency: { code: 'USD' } } })).toBe(
      'Transaction · OUTGOING · COMPLETED · 10000 USD',
    );
    expect(labelOf('InternalAccount', { type: 'INTERNAL_FIAT', status: 'ACTIVE', balance: { amount: 0, currency: { code: 'USDC' } } })).toBe(
      'InternalAccount · INTERNAL_FIAT · ACTIVE · 0 USDC',
    );
  });

  it('is the type alone when nothing is known', () => {
    expect(labelOf('Session', null)).toBe('Session');
    expect(labelOf('Session', { id: 'Session:1' })).toBe('Session');
  });
});

describe('namedIn', () => {
  it('lists the resource ids the data names, nested too, once each, but itself and platforms', () => {
    const data = [
      { quoteId: QUOTE, platformId: PLATFORM, source: { accountId: ACCOUNT, customerId: CUSTOMER } },
      { quoteId: QUOTE, note: 'Customer:not-an-id', accounts: [{ accountId: ACCOUNT }] },
    ];
    expect(namedIn(data, QUOTE)).toEqual([
      { id: ACCOUNT, type: 'InternalAccount', label: 'InternalAccount', relation: 'account' },
      { id: CUSTOMER, type: 'Customer', label: 'Customer', relation: 'customer' },
    ]);
  });
});
