import { isValidAbaRoutingNumber, isValidClabe, isValidIban } from './identifiers/bank-identifiers';
import { parseInvoice } from './identifiers/bolt11';
import { isValidPixCopyPaste } from './identifiers/pix';
import { isValidAddress } from './identifiers/crypto-addresses';
import { buildPaymentInstructions, formatMajor, fundingReference } from './payment-instructions';
import {
  CRYPTO_NETWORKS, DEFAULT_RAIL_BY_CURRENCY, PAYMENT_RAILS, RAILS_BY_ACCOUNT_TYPE, WIRE_PAYMENT_RAILS, defaultRail, isDestinationAccountType, isWirePaymentRail,
  quoteExpiresAt, quoteLifetimeMs, selectRail, supportedRails, wirePaymentRail,
} from './rails';
import { CURRENCY_CODES } from '../../shared/currencies';
import { EXTERNAL_ACCOUNT_TYPES, currenciesFor, railsFor } from '../../accounts';
import { PAYOUT_ONLY_CURRENCIES, PRICED_CURRENCY_CODES, isPricedCurrency, unpricedPayoutCurrency } from './payout-currencies';
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
    expect(selectRail({ accountType: 'USD_ACCOUNT', requestedRail: 'SEPA' }).error).toMatchObject({ field: 'destination.paymentRail', constraint: { enum: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] } });
    expect(selectRail({ accountType: 'USD_ACCOUNT', requestedRail: 'ACH', accountRails: ['WIRE'] }).error?.message).toContain('supported rails: WIRE');
    expect(selectRail({ accountType: 'EUR_ACCOUNT', requestedRail: 'CARRIER_PIGEON' }).error?.constraint).toEqual({ enum: WIRE_PAYMENT_RAILS });
    expect(PAYMENT_RAILS).toEqual(expect.arrayContaining(['ACH', 'SEPA', 'LIGHTNING', 'UMA']));
    // Internal rail names are not accepted from clients; wallets take no rail at all.
    expect(selectRail({ accountType: 'SPARK_WALLET', requestedRail: 'SPARK' }).error?.constraint).toEqual({ enum: WIRE_PAYMENT_RAILS });
    expect(selectRail({ accountType: 'SPARK_WALLET', requestedRail: 'ACH' }).error).toEqual({
      field: 'destination.paymentRail', constraint: { enum: [] }, message: 'The destination account takes no paymentRail; omit destination.paymentRail',
    });
    expect(selectRail({ accountType: 'INR_ACCOUNT', requestedRail: 'NEFT' })).toEqual({ rail: 'NEFT' });
  });

  it("shows a rail under the contract's name, or not at all", () => {
    expect(WIRE_PAYMENT_RAILS).toEqual([
      'ACH', 'ACH_COLOMBIA', 'BANK_TRANSFER', 'BRE_B', 'CIPS', 'FAST', 'FASTER_PAYMENTS', 'FEDNOW', 'INSTAPAY', 'MOBILE_MONEY', 'NEFT', 'PAYNOW',
      'PESONET', 'PIX', 'RTGS', 'RTP', 'SEPA', 'SEPA_INSTANT', 'SPEI', 'SWIFT', 'UNIONPAY', 'UPI', 'WIRE',
    ]);
    expect(wirePaymentRail('SEPA_INSTANT')).toBe('SEPA_INSTANT');
    for (const rail of ['SPARK', 'LIGHTNING', 'SOLANA', 'UMA', 'EMBEDDED_WALLET', 'INTERNAL', 'IMPS', null, undefined]) expect(wirePaymentRail(rail)).toBeUndefined();
    for (const choice of Object.values(RAILS_BY_ACCOUNT_TYPE)) {
      // A type has contract rails only, or one implicit rail the contract does not name.
      expect(choice.rails.every(isWirePaymentRail) || (choice.rails.length === 1 && !isWirePaymentRail(choice.rails[0]))).toBe(true);
    }
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

describe('rails per external account type', () => {
  // Given every external account type the service accepts (the reference's `*ExternalAccountInfo`).
  it('makes every external account type a destination with exactly the rails the account can carry', () => {
    for (const type of EXTERNAL_ACCOUNT_TYPES) {
      expect([type, isDestinationAccountType(type)]).toEqual([type, true]);
      if (!isDestinationAccountType(type)) continue;
      expect([type, supportedRails(type)]).toEqual([type, railsFor(type)]);
      expect([type, supportedRails(type).includes(defaultRail(type))]).toEqual([type, true]);
    }
  });

  it.each([
    ['AED_ACCOUNT', 'BANK_TRANSFER'], ['BDT_ACCOUNT', 'BANK_TRANSFER'], ['BRL_ACCOUNT', 'PIX'], ['BWP_ACCOUNT', 'MOBILE_MONEY'],
    ['CAD_ACCOUNT', 'BANK_TRANSFER'], ['CNY_ACCOUNT', 'BANK_TRANSFER'], ['COP_ACCOUNT', 'BANK_TRANSFER'], ['DKK_ACCOUNT', 'SEPA_INSTANT'],
    ['EGP_ACCOUNT', 'BANK_TRANSFER'], ['EUR_ACCOUNT', 'SEPA_INSTANT'], ['GBP_ACCOUNT', 'FASTER_PAYMENTS'], ['GHS_ACCOUNT', 'BANK_TRANSFER'],
    ['GTQ_ACCOUNT', 'BANK_TRANSFER'], ['HKD_ACCOUNT', 'BANK_TRANSFER'], ['HTG_ACCOUNT', 'MOBILE_MONEY'], ['IDR_ACCOUNT', 'BANK_TRANSFER'],
    ['INR_ACCOUNT', 'UPI'], ['JMD_ACCOUNT', 'BANK_TRANSFER'], ['KES_ACCOUNT', 'MOBILE_MONEY'], ['MWK_ACCOUNT', 'MOBILE_MONEY'],
    ['MXN_ACCOUNT', 'SPEI'], ['MYR_ACCOUNT', 'BANK_TRANSFER'], ['NGN_ACCOUNT', 'BANK_TRANSFER'], ['PHP_ACCOUNT', 'BANK_TRANSFER'],
    ['PKR_ACCOUNT', 'BANK_TRANSFER'], ['RWF_ACCOUNT', 'MOBILE_MONEY'], ['SGD_ACCOUNT', 'FAST'], ['SLV_ACCOUNT', 'BANK_TRANSFER'],
    ['THB_ACCOUNT', 'BANK_TRANSFER'], ['TZS_ACCOUNT', 'MOBILE_MONEY'], ['UGX_ACCOUNT', 'MOBILE_MONEY'], ['USD_ACCOUNT', 'ACH'],
    ['VND_ACCOUNT', 'BANK_TRANSFER'], ['XAF_ACCOUNT', 'MOBILE_MONEY'], ['XOF_ACCOUNT', 'MOBILE_MONEY'], ['ZAR_ACCOUNT', 'BANK_TRANSFER'],
    ['ZMW_ACCOUNT', 'MOBILE_MONEY'], ['SWIFT_ACCOUNT', 'SWIFT'], ['SPARK_WALLET', 'SPARK'], ['LIGHTNING', 'LIGHTNING'],
    ['SOLANA_WALLET', 'SOLANA'], ['BASE_WALLET', 'BASE'], ['POLYGON_WALLET', 'POLYGON'], ['ETHEREUM_WALLET', 'ETHEREUM'],
    ['TRON_WALLET', 'TRON'], ['PLASMA_WALLET', 'PLASMA'],
  ] as const)('%s: a quote naming no rail pays on %s', (accountType, rail) => {
    expect(selectRail({ accountType })).toEqual({ rail });
  });

  it("narrows the type's rails to the account's own paymentRails, default first", () => {
    // An account with a phone only is paid by mobile money; one with a bank account only, by bank.
    for (const type of ['BDT_ACCOUNT', 'CNY_ACCOUNT', 'COP_ACCOUNT', 'EGP_ACCOUNT', 'GHS_ACCOUNT', 'PKR_ACCOUNT', 'SLV_ACCOUNT'] as const) {
      expect([type, selectRail({ accountType: type, accountRails: ['MOBILE_MONEY'] })]).toEqual([type, { rail: 'MOBILE_MONEY' }]);
      expect([type, selectRail({ accountType: type, accountRails: ['BANK_TRANSFER', 'MOBILE_MONEY'], requestedRail: 'MOBILE_MONEY' })]).toEqual([type, { rail: 'MOBILE_MONEY' }]);
      expect([type, selectRail({ accountType: type, accountRails: ['MOBILE_MONEY'], requestedRail: 'BANK_TRANSFER' }).error]).toEqual([type, {
        field: 'destination.paymentRail', constraint: { enum: ['MOBILE_MONEY'] },
        message: 'The destination account does not support BANK_TRANSFER; supported rails: MOBILE_MONEY',
      }]);
    }
    expect(selectRail({ accountType: 'INR_ACCOUNT', accountRails: ['NEFT', 'RTGS'] })).toEqual({ rail: 'NEFT' });
    expect(selectRail({ accountType: 'INR_ACCOUNT', accountRails: ['NEFT', 'RTGS'], requestedRail: 'RTGS' })).toEqual({ rail: 'RTGS' });
    expect(selectRail({ accountType: 'SGD_ACCOUNT', accountRails: ['FAST', 'BANK_TRANSFER'], requestedRail: 'BANK_TRANSFER' })).toEqual({ rail: 'BANK_TRANSFER' });
    // PayNow only when the account lists it.
    expect(selectRail({ accountType: 'SGD_ACCOUNT', accountRails: ['FAST', 'BANK_TRANSFER'], requestedRail: 'PAYNOW' }).error?.constraint).toEqual({ enum: ['FAST', 'BANK_TRANSFER'] });
    expect(selectRail({ accountType: 'SGD_ACCOUNT', accountRails: ['PAYNOW'], requestedRail: 'PAYNOW' })).toEqual({ rail: 'PAYNOW' });
    expect(selectRail({ accountType: 'DKK_ACCOUNT', requestedRail: 'SEPA' })).toEqual({ rail: 'SEPA' });
  });

  it('answers a rail the type cannot carry as a field error listing the rails it can', () => {
    expect(selectRail({ accountType: 'SWIFT_ACCOUNT', requestedRail: 'ACH' }).error).toEqual({
      field: 'destination.paymentRail', constraint: { enum: ['SWIFT'] }, message: 'The destination account does not support ACH; supported rails: SWIFT',
    });
    expect(selectRail({ accountType: 'HKD_ACCOUNT', requestedRail: 'SWIFT' }).error?.constraint).toEqual({ enum: ['BANK_TRANSFER'] });
    expect(selectRail({ accountType: 'KES_ACCOUNT', requestedRail: 'BANK_TRANSFER' }).error?.constraint).toEqual({ enum: ['MOBILE_MONEY'] });
    expect(selectRail({ accountType: 'DKK_ACCOUNT', requestedRail: 'FASTER_PAYMENTS' }).error?.constraint).toEqual({ enum: ['SEPA', 'SEPA_INSTANT'] });
    expect(selectRail({ accountType: 'TRON_WALLET', requestedRail: 'SWIFT' }).error?.constraint).toEqual({ enum: [] });
  });

  it('prices every currency an account type holds, each with a default payout rail of a type that holds it', () => {
    for (const type of EXTERNAL_ACCOUNT_TYPES) {
      for (const code of currenciesFor(type) ?? []) expect([type, code, isPricedCurrency(code)]).toEqual([type, code, true]);
    }
    for (const code of PRICED_CURRENCY_CODES) {
      const rail = DEFAULT_RAIL_BY_CURRENCY[code];
      const holders = EXTERNAL_ACCOUNT_TYPES.filter((type) => (currenciesFor(type) ?? Object.keys(PAYOUT_ONLY_CURRENCIES)).includes(code));
      expect([code, holders.some((type) => isDestinationAccountType(type) && supportedRails(type).includes(rail))]).toEqual([code, true]);
    }
  });

  it('refuses a payout in a currency without a rate (a SWIFT account may hold any code) as 400 INVALID_CURRENCY naming the account', () => {
    expect(unpricedPayoutCurrency('DKK', 'ExternalAccount:x')).toBeNull();
    expect(unpricedPayoutCurrency('CHF', 'ExternalAccount:x')).toBeNull();
    const refusal = unpricedPayoutCurrency('ISK', 'ExternalAccount:x');
    expect(refusal).toMatchObject({
      code: 'INVALID_CURRENCY',
      details: { errors: [{ field: 'destination.accountId', constraint: {}, message: 'ExternalAccount:x holds ISK, which the service has no exchange rate for' }] },
    });
  });

  it('locks SEPA Instant payouts (EUR, DKK) for 5 minutes and FAST, SWIFT, bank and mobile money payouts for 15', () => {
    expect(quoteLifetimeMs([defaultRail('DKK_ACCOUNT')])).toBe(5 * 60 * 1000);
    for (const rail of ['FAST', 'PAYNOW', 'SWIFT', 'BANK_TRANSFER', 'MOBILE_MONEY'] as const) expect([rail, quoteLifetimeMs([rail])]).toEqual([rail, 15 * 60 * 1000]);
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
    expect(errorsOf({})).toEqual([{ field: 'source.currency', constraint: {} }]);
    expect(errorsOf({ currency: 12 })).toEqual([{ field: 'source.currency', constraint: {} }]);
    expect(errorsOf({ currency: 'XYZ', cryptoNetwork: 'MOON' })).toEqual([
      { field: 'source.cryptoNetwork', constraint: { enum: CRYPTO_NETWORKS } }, { field: 'source.currency', constraint: { enum: CURRENCY_CODES } },
    ]);
    expect(CRYPTO_NETWORKS).toEqual(expect.arrayContaining(['SOLANA', 'LIGHTNING', 'BITCOIN']));
    expect(CURRENCY_CODES).toEqual(expect.arrayContaining(['USD', 'CAD', 'USDC', 'BTC']));
    expect(errorsOf({ currency: 'USDC' })).toEqual([{ field: 'source.cryptoNetwork', constraint: {} }]);
    expect(errorsOf({ currency: 'USDC', cryptoNetwork: 'ETHEREUM' })).toEqual([{ field: 'source.cryptoNetwork', constraint: { enum: ['SOLANA', 'BASE', 'POLYGON', 'SPARK'] } }]);
    expect(checkRealtimeFunding({ currency: 'USDC', cryptoNetwork: 'ETHEREUM' }).errors[0].message).toContain('not an instant payment method');
    expect(errorsOf({ currency: 'USDT', cryptoNetwork: 'LIGHTNING' })).toEqual([
      { field: 'source.cryptoNetwork', constraint: { enum: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK'] } },
    ]);
    expect(errorsOf({ currency: 'BTC', cryptoNetwork: 'BITCOIN' })).toEqual([{ field: 'source.cryptoNetwork', constraint: { enum: ['SPARK', 'LIGHTNING'] } }]);
    expect(errorsOf({ currency: 'USD', cryptoNetwork: 'SOLANA' })).toEqual([{ field: 'source.cryptoNetwork', constraint: {} }]);
    expect(errorsOf({ currency: 'CAD' })).toEqual([
      { field: 'source.currency', constraint: { enum: ['USD', 'EUR', 'GBP', 'MXN', 'BRL', 'BTC', 'USDC', 'USDT', 'USDB'] } },
    ]);
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
    expect(mxn.accountType === 'MXN_ACCOUNT' && isValidClabe(mxn.clabeNumber)).toBe(true);
    const brl = buildPaymentInstructions({ ...base, quoteId, method: fund({ currency: 'BRL' }) })[0].accountOrWalletInfo;
    expect(brl).toMatchObject({ accountType: 'BRL_ACCOUNT', pixKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) });
    // The PIX copy-and-paste payload carries the key, the amount and the reference as its txid.
    expect(brl.accountType === 'BRL_ACCOUNT' && isValidPixCopyPaste(brl.qrCode)).toBe(true);
    expect(brl.accountType === 'BRL_ACCOUNT' && brl.qrCode.includes(brl.pixKey) && brl.qrCode.includes(brl.reference.replace('-', ''))).toBe(true);
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
