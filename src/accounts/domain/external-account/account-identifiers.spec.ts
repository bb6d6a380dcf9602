import { checkIdentifiers, clabeCheckDigit, holdsCurrency, isAbaRoutingNumber, isClabe, isIban, wireIdentifiers } from './account-identifiers';

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
    const shape = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '', surprise: 1 });
    expect(shape.shapeErrors.map((error) => [error.field, error.constraint])).toEqual([
      ['accountInfo.surprise', {}],
      ['accountInfo.accountNumber', { minLength: 1, maxLength: 34 }],
      ['accountInfo.routingNumber', {}],
    ]);
    const checksum = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000022', intermediaryRoutingNumber: '021000021' });
    expect(checksum.shapeErrors).toEqual([]);
    expect(checksum.checksumErrors).toEqual([{ field: 'accountInfo.routingNumber', constraint: { format: 'aba-routing-number' }, message: 'routingNumber fails the ABA checksum' }]);
    const clabe = checkIdentifiers('MXN_ACCOUNT', { accountType: 'MXN_ACCOUNT', clabeNumber: '032180000118359710' });
    expect(clabe.checksumErrors.map((error) => error.field)).toEqual(['accountInfo.clabeNumber']);
    const swiftIban = checkIdentifiers('SWIFT_ACCOUNT', { accountType: 'SWIFT_ACCOUNT', country: 'DE', swiftCode: 'COBADEFFXXX', bankName: 'X', iban: 'DE89370400440532013001' });
    expect(swiftIban.checksumErrors.map((error) => error.field)).toEqual(['accountInfo.iban']);
  });

  it('uses the reference field names and enums (MXN clabeNumber, BRL pixKey + pixKeyType + taxId)', () => {
    const legacy = checkIdentifiers('MXN_ACCOUNT', { accountType: 'MXN_ACCOUNT', clabe: '032180000118359719' });
    expect(legacy.shapeErrors.map((error) => error.field)).toEqual(['accountInfo.clabe', 'accountInfo.clabeNumber']);
    const brl = checkIdentifiers('BRL_ACCOUNT', { accountType: 'BRL_ACCOUNT', pixKey: 'jane@example.com', pixKeyType: 'TWITTER' });
    expect(brl.shapeErrors).toEqual([
      { field: 'accountInfo.pixKeyType', constraint: { enum: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] }, message: expect.any(String) },
      { field: 'accountInfo.taxId', constraint: {}, message: expect.any(String) },
    ]);
  });

  it('defaults rails to what the identifiers can use, checks requested ones, and finds the primary identifier', () => {
    const usd = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' });
    expect(usd.value).toEqual({
      identifiers: { accountNumber: '123456789', routingNumber: '021000021' }, paymentRails: ['ACH', 'WIRE'], primaryIdentifier: '123456789', primaryField: 'accountInfo.accountNumber',
    });
    const rails = checkIdentifiers('USD_ACCOUNT', { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', paymentRails: ['SEPA'] });
    expect(rails.shapeErrors[0]).toEqual(expect.objectContaining({ field: 'accountInfo.paymentRails', constraint: { enum: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] } }));
    const ghsMobile = checkIdentifiers('GHS_ACCOUNT', { accountType: 'GHS_ACCOUNT', bankName: 'MTN', phoneNumber: '+233201234567' });
    expect(ghsMobile.value).toMatchObject({ paymentRails: ['MOBILE_MONEY'], primaryIdentifier: '+233201234567', primaryField: 'accountInfo.phoneNumber' });
    const ghsNothing = checkIdentifiers('GHS_ACCOUNT', { accountType: 'GHS_ACCOUNT', bankName: 'MTN' });
    expect(ghsNothing.shapeErrors.map((error) => error.field)).toEqual(['accountInfo.accountNumber']);
    const inr = checkIdentifiers('INR_ACCOUNT', { accountType: 'INR_ACCOUNT', accountNumber: '123456789012' });
    expect(inr.shapeErrors.map((error) => error.field)).toEqual(['accountInfo.ifsc']);
    const upi = checkIdentifiers('INR_ACCOUNT', { accountType: 'INR_ACCOUNT', vpa: 'jane@okbank', paymentRails: ['NEFT'] });
    expect(upi.shapeErrors[0]).toEqual(expect.objectContaining({ field: 'accountInfo.paymentRails', constraint: { enum: ['UPI'] } }));
    const lightning = checkIdentifiers('LIGHTNING', { accountType: 'LIGHTNING', lightningAddress: 'alice.002@example.com' });
    expect(lightning.value?.primaryIdentifier).toBe('alice.002@example.com');
    const both = checkIdentifiers('LIGHTNING', { accountType: 'LIGHTNING', lightningAddress: 'a@b.co', invoice: 'lnbc1500n1pexample0000' });
    expect(both.shapeErrors[0]).toEqual(expect.objectContaining({ field: 'accountInfo.invoice', constraint: {} }));
    const beneficiary = checkIdentifiers('LIGHTNING', { accountType: 'LIGHTNING', lightningAddress: 'a@b.co', beneficiary: {} });
    expect(beneficiary.shapeErrors.map((error) => error.field)).toEqual(['accountInfo.beneficiary']);
  });

  it('checks the currency against the type (SWIFT: any ISO 4217 code; SLV: dollars)', () => {
    expect(holdsCurrency('DKK_ACCOUNT', 'DKK')).toBe(true);
    expect(holdsCurrency('DKK_ACCOUNT', 'EUR')).toBe(false);
    expect(holdsCurrency('SLV_ACCOUNT', 'USD')).toBe(true);
    expect(holdsCurrency('SWIFT_ACCOUNT', 'CHF')).toBe(true);
    expect(holdsCurrency('SWIFT_ACCOUNT', 'usd')).toBe(false);
  });

  it('maps stored legacy field names to the wire names', () => {
    expect(wireIdentifiers('MXN_ACCOUNT', { clabe: '032180000118359719' })).toEqual({ clabeNumber: '032180000118359719' });
    expect(wireIdentifiers('USD_ACCOUNT', { accountNumber: '1', accountCategory: 'CHECKING' })).toEqual({ accountNumber: '1', bankAccountType: 'CHECKING' });
    expect(wireIdentifiers('BRL_ACCOUNT', { pixKey: '12345678901' })).toEqual({ pixKey: '12345678901', pixKeyType: 'CPF' });
    expect(wireIdentifiers('BRL_ACCOUNT', { pixKey: 'a@b.co', pixKeyType: 'EMAIL', taxId: '12345678901' })).toEqual({ pixKey: 'a@b.co', pixKeyType: 'EMAIL', taxId: '12345678901' });
  });
});
