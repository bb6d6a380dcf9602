import { isValidAbaRoutingNumber, isValidClabe, isValidIban } from './identifiers/bank-identifiers';
import { parseInvoice } from './identifiers/bolt11';
import { isValidAddress } from './identifiers/crypto-addresses';
import { buildPaymentInstructions, formatMajor, fundingReference } from './payment-instructions';
import { RAILS_BY_ACCOUNT_TYPE, defaultRail, quoteExpiresAt, quoteLifetimeMs, selectRail, supportedRails } from './rails';
import { FundingMethod, checkRealtimeFunding } from './realtime-funding';

describe('rails', () => {
  it('lists the rails of each destination type with a supported default', () => {
    expect(supportedRails('USD_ACCOUNT')).toEqual(['ACH', 'WIRE', 'RTP', 'FEDNOW']);
    expect(defaultRail('USD_ACCOUNT')).toBe('ACH');
    expect(supportedRails('EUR_ACCOUNT')).toEqual(['SEPA', 'SEPA_INSTANT']);
    expect(supportedRails('GBP_ACCOUNT')).toEqual(['FASTER_PAYMENTS']);
    expect(supportedRails('MXN_ACCOUNT')).toEqual(['SPEI']);
    expect(supportedRails('BRL_ACCOUNT')).toEqual(['PIX']);
    for (const [type, choice] of Object.entries(RAILS_BY_ACCOUNT_TYPE)) expect([type, choice.rails.includes(choice.defaultRail)]).toEqual([type, true]);
  });

  it('selects the requested rail, the default, or answers a field error', () => {
    expect(selectRail({ accountType: 'USD_ACCOUNT' })).toEqual({ rail: 'ACH' });
    expect(selectRail({ accountType: 'USD_ACCOUNT', requestedRail: 'RTP' })).toEqual({ rail: 'RTP' });
    expect(selectRail({ accountType: 'USD_ACCOUNT', accountRails: ['WIRE'] })).toEqual({ rail: 'WIRE' });
    expect(selectRail({ accountType: 'USD_ACCOUNT', requestedRail: 'SEPA' }).error).toMatchObject({ field: 'destination.paymentRail', constraint: 'ENUM' });
    expect(selectRail({ accountType: 'USD_ACCOUNT', requestedRail: 'ACH', accountRails: ['WIRE'] }).error?.message).toContain('supported rails: WIRE');
    expect(selectRail({ accountType: 'EUR_ACCOUNT', requestedRail: 'CARRIER_PIGEON' }).error).toMatchObject({ constraint: 'ENUM' });
  });

  it('locks instant rails for 5 minutes and others for 15', () => {
    for (const rail of ['LIGHTNING', 'SPARK', 'SOLANA', 'BASE', 'POLYGON', 'RTP', 'SEPA_INSTANT', 'EMBEDDED_WALLET'] as const) {
      expect([rail, quoteLifetimeMs([rail])]).toEqual([rail, 5 * 60 * 1000]);
    }
    for (const rail of ['ACH', 'WIRE', 'SEPA', 'SPEI', 'PIX', 'ETHEREUM', 'TRON', 'BITCOIN', 'FASTER_PAYMENTS'] as const) {
      expect([rail, quoteLifetimeMs([rail])]).toEqual([rail, 15 * 60 * 1000]);
    }
    expect(quoteLifetimeMs(['ACH', 'LIGHTNING'])).toBe(5 * 60 * 1000);
    expect(quoteExpiresAt('2025-10-13T12:00:00.000Z', ['ACH'])).toBe('2025-10-13T12:15:00.000Z');
    expect(quoteExpiresAt(new Date('2025-10-13T12:00:00Z'), ['SEPA_INSTANT'])).toBe('2025-10-13T12:05:00.000Z');
  });
});

describe('REALTIME_FUNDING sources', () => {
  const method = (source: { currency?: unknown; cryptoNetwork?: unknown }): FundingMethod => {
    const checked = checkRealtimeFunding(source);
    if (!checked.method) throw new Error(JSON.stringify(checked.errors));
    return checked.method;
  };
  const errorsOf = (source: { currency?: unknown; cryptoNetwork?: unknown }) => checkRealtimeFunding(source).errors.map(({ field, constraint }) => ({ field, constraint }));

  it('accepts instant methods only', () => {
    expect(method({ currency: 'USD' })).toEqual({ currency: 'USD', cryptoNetwork: null, rails: ['RTP', 'FEDNOW'], instructionType: 'USD_ACCOUNT' });
    expect(method({ currency: 'EUR' }).instructionType).toBe('EUR_ACCOUNT');
    expect(method({ currency: 'BTC' })).toMatchObject({ cryptoNetwork: 'SPARK', instructionType: 'SPARK_WALLET' });
    expect(method({ currency: 'BTC', cryptoNetwork: 'LIGHTNING' })).toMatchObject({ instructionType: 'LIGHTNING', rails: ['LIGHTNING'] });
    expect(method({ currency: 'USDC', cryptoNetwork: 'SOLANA' })).toMatchObject({ instructionType: 'SOLANA_WALLET' });
    expect(method({ currency: 'USDT', cryptoNetwork: 'BASE' })).toMatchObject({ instructionType: 'BASE_WALLET' });
    expect(method({ currency: 'USDC', cryptoNetwork: 'POLYGON' })).toMatchObject({ instructionType: 'POLYGON_WALLET' });
    expect(method({ currency: 'USDB', cryptoNetwork: 'SPARK' })).toMatchObject({ instructionType: 'SPARK_WALLET' });
  });

  it('answers every bad field with its constraint', () => {
    expect(errorsOf({})).toEqual([{ field: 'source.currency', constraint: 'REQUIRED' }]);
    expect(errorsOf({ currency: 12 })).toEqual([{ field: 'source.currency', constraint: 'TYPE' }]);
    expect(errorsOf({ currency: 'XYZ', cryptoNetwork: 'MOON' })).toEqual([
      { field: 'source.cryptoNetwork', constraint: 'ENUM' }, { field: 'source.currency', constraint: 'ENUM' },
    ]);
    expect(errorsOf({ currency: 'USDC' })).toEqual([{ field: 'source.cryptoNetwork', constraint: 'REQUIRED' }]);
    expect(errorsOf({ currency: 'USDC', cryptoNetwork: 'ETHEREUM' })).toEqual([{ field: 'source.cryptoNetwork', constraint: 'ENUM' }]);
    expect(checkRealtimeFunding({ currency: 'USDC', cryptoNetwork: 'ETHEREUM' }).errors[0].message).toContain('not an instant payment method');
    expect(errorsOf({ currency: 'USDT', cryptoNetwork: 'LIGHTNING' })).toEqual([{ field: 'source.cryptoNetwork', constraint: 'ENUM' }]);
    expect(errorsOf({ currency: 'BTC', cryptoNetwork: 'BITCOIN' })).toEqual([{ field: 'source.cryptoNetwork', constraint: 'ENUM' }]);
    expect(errorsOf({ currency: 'USD', cryptoNetwork: 'SOLANA' })).toEqual([{ field: 'source.cryptoNetwork', constraint: 'FORMAT' }]);
    expect(errorsOf({ currency: 'CAD' })).toEqual([{ field: 'source.currency', constraint: 'ENUM' }]);
  });
});

describe('payment instructions', () => {
  const base = { amount: 10_050, createdAt: '2025-10-13T12:00:00.000Z', expiresAt: '2025-10-13T12:05:00.000Z', onBehalfOfCustomer: true };
  const fund = (source: { currency: string; cryptoNetwork?: string }) => checkRealtimeFunding(source).method!;

  it('builds a USD account with a valid routing number, the instant rails and a unique reference', () => {
    const [first] = buildPaymentInstructions({ ...base, quoteId: 'Quote:0195f0a0-0000-7000-8000-000000000001', method: fund({ currency: 'USD' }) });
    const [second] = buildPaymentInstructions({ ...base, quoteId: 'Quote:0195f0a0-0000-7000-8000-000000000002', method: fund({ currency: 'USD' }) });
    const info = first.accountOrWalletInfo;
    if (info.accountType !== 'USD_ACCOUNT') throw new Error('expected USD_ACCOUNT');
    expect(info).toEqual({
      accountType: 'USD_ACCOUNT', accountNumber: expect.stringMatching(/^\d{12}$/), routingNumber: expect.any(String), bankName: 'Sandbox Settlement Bank',
      paymentRails: ['RTP', 'FEDNOW'], reference: fundingReference('Quote:0195f0a0-0000-7000-8000-000000000001'),
    });
    expect(isValidAbaRoutingNumber(info.routingNumber)).toBe(true);
    expect(info.reference).toMatch(/^QT-[A-Z2-9]{12}$/);
    expect(second.accountOrWalletInfo).not.toEqual(info);
    expect(first.isPlatformAccount).toBe(false);
    expect(first.instructionsNotes).toContain('100.50 USD');
    expect(first.instructionsNotes).toContain(info.reference);
  });

  it('builds valid bank identifiers for EUR, GBP, MXN and BRL', () => {
    const quoteId = 'Quote:0195f0a0-0000-7000-8000-0000000000aa';
    const eur = buildPaymentInstructions({ ...base, quoteId, method: fund({ currency: 'EUR' }) })[0].accountOrWalletInfo;
    expect(eur.accountType === 'EUR_ACCOUNT' && isValidIban(eur.iban)).toBe(true);
    expect(eur).toMatchObject({ paymentRails: ['SEPA_INSTANT'], swiftCode: expect.stringMatching(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/) });
    const gbp = buildPaymentInstructions({ ...base, quoteId, method: fund({ currency: 'GBP' }) })[0].accountOrWalletInfo;
    expect(gbp).toMatchObject({ accountType: 'GBP_ACCOUNT', accountNumber: expect.stringMatching(/^\d{8}$/), sortCode: expect.stringMatching(/^\d{6}$/) });
    const mxn = buildPaymentInstructions({ ...base, quoteId, method: fund({ currency: 'MXN' }) })[0].accountOrWalletInfo;
    expect(mxn.accountType === 'MXN_ACCOUNT' && isValidClabe(mxn.clabe)).toBe(true);
    const brl = buildPaymentInstructions({ ...base, quoteId, method: fund({ currency: 'BRL' }) })[0].accountOrWalletInfo;
    expect(brl).toMatchObject({ accountType: 'BRL_ACCOUNT', pixKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) });
  });

  it('builds Spark and Lightning funding with a signed invoice for the sending amount', () => {
    const quoteId = 'Quote:0195f0a0-0000-7000-8000-0000000000bb';
    const [spark] = buildPaymentInstructions({ ...base, amount: 12_345, quoteId, method: fund({ currency: 'BTC' }), onBehalfOfCustomer: false });
    const info = spark.accountOrWalletInfo;
    if (info.accountType !== 'SPARK_WALLET') throw new Error('expected SPARK_WALLET');
    expect(info.assetType).toBe('BTC');
    expect(isValidAddress('SPARK', info.address)).toBe(true);
    expect(spark.isPlatformAccount).toBe(true);
    const invoice = parseInvoice(info.invoice!)!;
    expect(invoice).toMatchObject({ network: 'regtest', amountMsat: 12_345_000n, timestampSeconds: 1_760_356_800, expirySeconds: 300, description: `Funding for ${quoteId}` });
    const [lightning] = buildPaymentInstructions({ ...base, amount: 12_345, quoteId, method: fund({ currency: 'BTC', cryptoNetwork: 'LIGHTNING' }) });
    expect(lightning.accountOrWalletInfo).toEqual({ accountType: 'LIGHTNING', invoice: info.invoice });
    const [usdb] = buildPaymentInstructions({ ...base, quoteId, method: fund({ currency: 'USDB', cryptoNetwork: 'SPARK' }) });
    expect(usdb.accountOrWalletInfo).toEqual({ accountType: 'SPARK_WALLET', assetType: 'USDB', address: info.address });
  });

  it('builds stablecoin deposit addresses in each network format', () => {
    const quoteId = 'Quote:0195f0a0-0000-7000-8000-0000000000cc';
    for (const [network, accountType] of [['SOLANA', 'SOLANA_WALLET'], ['BASE', 'BASE_WALLET'], ['POLYGON', 'POLYGON_WALLET']] as const) {
      const [instructions] = buildPaymentInstructions({ ...base, amount: 25_000_000, quoteId, method: fund({ currency: 'USDC', cryptoNetwork: network }) });
      const info = instructions.accountOrWalletInfo as { accountType: string; assetType: string; address: string };
      expect(info.accountType).toBe(accountType);
      expect(info.assetType).toBe('USDC');
      expect(isValidAddress(network, info.address)).toBe(true);
      expect(instructions.instructionsNotes).toContain('25.000000 USDC');
    }
  });

  it('rebuilds byte-identical instructions from the same quote', () => {
    const request = { ...base, quoteId: 'Quote:0195f0a0-0000-7000-8000-0000000000dd', method: fund({ currency: 'BTC' }) };
    expect(JSON.stringify(buildPaymentInstructions(request))).toBe(JSON.stringify(buildPaymentInstructions({ ...request })));
    expect(formatMajor(5, 'USD')).toBe('0.05');
    expect(formatMajor(123_456_789, 'BTC')).toBe('1.23456789');
  });
});
