import { checkIdentifiers, clabeCheckDigit, isAbaRoutingNumber, isClabe, isIban } from './account-identifiers';

describe('external account identifiers', () => {
  it('checks ABA routing numbers, IBANs and CLABEs', () => {
    expect(isAbaRoutingNumber('021000021')).toBe(true);
    expect(isAbaRoutingNumber('021000022')).toBe(false);
    expect(isIban('DE89370400440532013000')).toBe(true);
    expect(isIban('DE89370400440532013001')).toBe(false);
    const first17 = '03218000011835971';
    expect(isClabe(first17 + clabeCheckDigit(first17))).toBe(true);
    expect(isClabe(first17 + ((clabeCheckDigit(first17) + 1) % 10))).toBe(false);
  });

  it('separates shape errors from checksum errors', () => {
    const shape = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '12', surprise: 1 });
    expect(shape.shapeErrors.map((error) => [error.field, error.constraint])).toEqual([
      ['accountInfo.surprise', 'UNKNOWN_FIELD'],
      ['accountInfo.accountNumber', 'PATTERN'],
      ['accountInfo.routingNumber', 'REQUIRED'],
    ]);
    const checksum = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000022' });
    expect(checksum.shapeErrors).toEqual([]);
    expect(checksum.checksumErrors).toEqual([{ field: 'accountInfo.routingNumber', constraint: 'FORMAT', message: 'routingNumber fails the ABA checksum' }]);
  });

  it('defaults and checks payment rails, and finds the primary identifier', () => {
    const usd = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' });
    expect(usd.value).toEqual({ identifiers: { accountNumber: '123456789', routingNumber: '021000021' }, paymentRails: ['ACH', 'WIRE'], primaryIdentifier: '123456789' });
    const rails = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', paymentRails: ['SEPA'] });
    expect(rails.shapeErrors[0]).toEqual(expect.objectContaining({ field: 'accountInfo.paymentRails', constraint: 'ENUM' }));
    const lightning = checkIdentifiers('LIGHTNING', { accountType: 'LIGHTNING', lightningAddress: 'alice.002@example.com' });
    expect(lightning.value?.primaryIdentifier).toBe('alice.002@example.com');
    const both = checkIdentifiers('LIGHTNING', { accountType: 'LIGHTNING', lightningAddress: 'a@b.co', invoice: 'lnbc1500n1pexample0000' });
    expect(both.shapeErrors[0]).toEqual(expect.objectContaining({ field: 'accountInfo.invoice', constraint: 'REQUIRED' }));
  });
});
