import { deciderSpec } from '../../../../test/support/decider-spec';
import { RecordReceiverLookup, LookupEvent, ReceiverLookup, assertLookupUsable, lookupDecider } from './lookup.decider';

const LOOKED_UP_AT = '2025-10-13T12:00:00.000Z';
const EXPIRES_AT = '2025-10-13T12:05:00.000Z';
const lookup: ReceiverLookup = {
  lookupId: 'LookupRequest:l',
  platformId: 'Platform:p',
  customerId: 'Customer:c',
  senderUmaAddress: null,
  destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money' },
  sendingCurrency: 'USD',
  supportedCurrencies: [{ currency: 'EUR', estimatedExchangeRate: 1.16, min: 1, max: 7_000_000_000_000_000 }],
  requiredPayerDataFields: [{ name: 'IDENTIFIER', mandatory: true }],
  rateSnapshotId: 'rates-1',
  lookedUpAt: LOOKED_UP_AT,
  expiresAt: EXPIRES_AT,
};
const command: RecordReceiverLookup = { type: 'RecordReceiverLookup', lookup };
const recorded: LookupEvent = { type: 'ReceiverLookedUp', data: lookup };
const spec = deciderSpec(lookupDecider);
const use = (overrides: Partial<Parameters<typeof assertLookupUsable>[1]> = {}) => ({
  lookupId: 'LookupRequest:l',
  platformId: 'Platform:p',
  destination: { destinationType: 'UMA_ADDRESS' as const, umaAddress: '$Success.EUR@sandbox.uma.money' },
  now: '2025-10-13T12:04:59.999Z',
  ...overrides,
});

describe('receiver lookup decider', () => {
  it('records the lookup once; the same lookup again is a no-op', () => {
    spec.given([]).when(command).then([recorded]);
    spec.given([recorded]).when(command).then([]);
    expect(spec.state([recorded])).toEqual({ status: 'recorded', lookup });
  });

  it('is usable for its destination (UMA addresses case-insensitive) until it expires', () => {
    expect(assertLookupUsable(spec.state([recorded]), use())).toEqual(lookup);
  });

  it('an unknown lookup and another platform\'s answer the same LOOKUP_REQUEST_FAILED, without a reason', () => {
    const notFound = { code: 'LOOKUP_REQUEST_FAILED', details: { lookupId: 'LookupRequest:l' } };
    expect(() => assertLookupUsable(spec.state([]), use())).toThrow(expect.objectContaining(notFound));
    expect(() => assertLookupUsable(spec.state([recorded]), use({ platformId: 'Platform:other' }))).toThrow(expect.objectContaining(notFound));
  });

  it('refuses an expired lookup (at expiresAt) with reason LOOKUP_REQUEST_EXPIRED', () => {
    expect(() => assertLookupUsable(spec.state([recorded]), use({ now: EXPIRES_AT }))).toThrow(
      expect.objectContaining({ code: 'LOOKUP_REQUEST_FAILED', details: { lookupId: 'LookupRequest:l', reason: 'LOOKUP_REQUEST_EXPIRED', expiresAt: EXPIRES_AT } }),
    );
  });

  it('refuses another destination with reason DESTINATION_MISMATCH', () => {
    const mismatch = { code: 'LOOKUP_REQUEST_FAILED', details: { lookupId: 'LookupRequest:l', reason: 'DESTINATION_MISMATCH', lookupDestination: lookup.destination } };
    const otherAddress = use({ destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' } });
    expect(() => assertLookupUsable(spec.state([recorded]), otherAddress)).toThrow(expect.objectContaining(mismatch));
    const account = use({ destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:e' } });
    expect(() => assertLookupUsable(spec.state([recorded]), account)).toThrow(expect.objectContaining(mismatch));
    const accountLookup: LookupEvent = { type: 'ReceiverLookedUp', data: { ...lookup, destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:e' } } };
    expect(assertLookupUsable(spec.state([accountLookup]), account).destination).toEqual({ destinationType: 'ACCOUNT', accountId: 'ExternalAccount:e' });
    expect(() => assertLookupUsable(spec.state([accountLookup]), use({ destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:x' } }))).toThrow(
      expect.objectContaining({ code: 'LOOKUP_REQUEST_FAILED' }),
    );
  });
});
