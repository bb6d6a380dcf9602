import { EXTERNAL_ACCOUNT_TYPES, ibanRemainder } from '../../../src/accounts/domain/external-account/account-identifiers';
import { quoteInvariantViolations } from '../../../src/quotes/pricing/invariants';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { clabe, germanIban } from '../../support/customer-fixtures';
import { FundedCustomer, accountQuoteBody, balances, fundedCustomer, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';

/** An IBAN for `country` and `bban` with its mod-97 check digits. */
function ibanFor(country: string, bban: string): string {
  const check = 98 - ibanRemainder(`${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55)));
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

const individual = { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' };
const address = { line1: '1 Main St', postalCode: '10115', country: 'DE' };
const EVM = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

/**
 * One valid account of every external account type, each primary identifier ending in a suffix the
 * sandbox settles (not 002..007): [accountType, currency, its decimals, the rail a quote naming no
 * rail pays on (null: a wallet, whose network has no contract rail name), the quote's lifetime in
 * minutes, accountInfo].
 */
type Row = [string, string, number, string | null, number, Record<string, unknown>];
const ACCOUNTS: Row[] = [
  ['AED_ACCOUNT', 'AED', 2, 'BANK_TRANSFER', 15, { iban: ibanFor('AE', '0331234567890123456'), beneficiary: { ...individual, address } }],
  // A phone only: mobile money, the one rail its identifiers fit.
  ['BDT_ACCOUNT', 'BDT', 2, 'MOBILE_MONEY', 15, { bankName: 'bKash', phoneNumber: '+8801712345678', beneficiary: individual }],
  ['BRL_ACCOUNT', 'BRL', 2, 'PIX', 15, { pixKey: 'jane@example.com', pixKeyType: 'EMAIL', taxId: '12345678901', beneficiary: individual }],
  ['BWP_ACCOUNT', 'BWP', 2, 'MOBILE_MONEY', 15, { phoneNumber: '+26771234567', provider: 'Orange', beneficiary: individual }],
  ['CAD_ACCOUNT', 'CAD', 2, 'BANK_TRANSFER', 15, { bankCode: '001', branchCode: '00011', accountNumber: '1234567', beneficiary: individual }],
  ['CNY_ACCOUNT', 'CNY', 2, 'BANK_TRANSFER', 15, { bankName: 'ICBC', accountNumber: '6222021234567890', beneficiary: individual }],
  ['COP_ACCOUNT', 'COP', 2, 'BANK_TRANSFER', 15, {
    bankName: 'Bancolombia', accountNumber: '1234567890', bankAccountType: 'SAVINGS', beneficiary: { ...individual, documentType: 'CC', documentNumber: '1020304050' },
  }],
  ['DKK_ACCOUNT', 'DKK', 2, 'SEPA_INSTANT', 5, { iban: ibanFor('DK', '00400440116243'), swiftCode: 'DABADKKK', beneficiary: individual }],
  ['EGP_ACCOUNT', 'EGP', 2, 'BANK_TRANSFER', 15, { bankName: 'CIB', iban: ibanFor('EG', '0019000500000000263180789'), beneficiary: individual }],
  ['EUR_ACCOUNT', 'EUR', 2, 'SEPA_INSTANT', 5, { iban: germanIban('789'), swiftCode: 'COBADEFFXXX', beneficiary: { ...individual, countryOfResidence: 'DE' } }],
  ['GBP_ACCOUNT', 'GBP', 2, 'FASTER_PAYMENTS', 15, { accountNumber: '12345678', sortCode: '123456', beneficiary: individual }],
  // A bank account and a phone: the bank by default.
  ['GHS_ACCOUNT', 'GHS', 2, 'BANK_TRANSFER', 15, { bankName: 'GCB', accountNumber: '1234567890', phoneNumber: '+233201234567', beneficiary: individual }],
  ['GTQ_ACCOUNT', 'GTQ', 2, 'BANK_TRANSFER', 15, {
    accountNumber: '1234567', bankAccountType: 'CHECKING', bankName: 'Banrural', beneficiary: { ...individual, countryOfResidence: 'GT', phoneNumber: '+50221234567' },
  }],
  ['HKD_ACCOUNT', 'HKD', 2, 'BANK_TRANSFER', 15, { bankName: 'HSBC', accountNumber: '123456789', swiftCode: 'HSBCHKHH', beneficiary: individual }],
  ['HTG_ACCOUNT', 'HTG', 2, 'MOBILE_MONEY', 15, { phoneNumber: '+50934567890', beneficiary: individual }],
  ['IDR_ACCOUNT', 'IDR', 2, 'BANK_TRANSFER', 15, { bankName: 'BCA', accountNumber: '1234567890', swiftCode: 'CENAIDJA', phoneNumber: '+628123456789', beneficiary: individual }],
  ['INR_ACCOUNT', 'INR', 2, 'UPI', 15, { vpa: 'jane@okbank', beneficiary: individual }],
  ['JMD_ACCOUNT', 'JMD', 2, 'BANK_TRANSFER', 15, {
    accountNumber: '123456', branchCode: '12345', bankAccountType: 'SAVINGS', bankName: 'NCB', beneficiary: { ...individual, address, phoneNumber: '+18765551234' },
  }],
  ['KES_ACCOUNT', 'KES', 2, 'MOBILE_MONEY', 15, { phoneNumber: '+254712345678', provider: 'M-Pesa', beneficiary: individual }],
  ['MWK_ACCOUNT', 'MWK', 2, 'MOBILE_MONEY', 15, { phoneNumber: '+265991234567', provider: 'Airtel', beneficiary: individual }],
  ['MXN_ACCOUNT', 'MXN', 2, 'SPEI', 15, { clabeNumber: clabe(), beneficiary: individual }],
  ['MYR_ACCOUNT', 'MYR', 2, 'BANK_TRANSFER', 15, { bankName: 'Maybank', accountNumber: '123456789012', swiftCode: 'MBBEMYKL', beneficiary: individual }],
  ['NGN_ACCOUNT', 'NGN', 2, 'BANK_TRANSFER', 15, { accountNumber: '0123456789', bankName: 'GTBank', beneficiary: individual }],
  ['PHP_ACCOUNT', 'PHP', 2, 'BANK_TRANSFER', 15, { bankName: 'BDO', accountNumber: '12345678', beneficiary: individual }],
  ['PKR_ACCOUNT', 'PKR', 2, 'BANK_TRANSFER', 15, { bankName: 'HBL', iban: ibanFor('PK', 'SCBL0000001123456789'), beneficiary: individual }],
  ['RWF_ACCOUNT', 'RWF', 0, 'MOBILE_MONEY', 15, { phoneNumber: '+250781234567', provider: 'MTN', beneficiary: individual }],
  // FAST by default; PayNow only when the account lists it.
  ['SGD_ACCOUNT', 'SGD', 2, 'FAST', 15, { accountNumber: '1234567890', swiftCode: 'DBSSSGSG', beneficiary: individual }],
  // El Salvador pays in US dollars.
  ['SLV_ACCOUNT', 'USD', 2, 'MOBILE_MONEY', 15, { phoneNumber: '+50371234567', beneficiary: individual }],
  ['THB_ACCOUNT', 'THB', 2, 'BANK_TRANSFER', 15, { bankName: 'Bangkok Bank', accountNumber: '1234567890', swiftCode: 'BKKBTHBK', beneficiary: individual }],
  ['TZS_ACCOUNT', 'TZS', 2, 'MOBILE_MONEY', 15, { phoneNumber: '+255712345678', provider: 'Vodacom', beneficiary: individual }],
  ['UGX_ACCOUNT', 'UGX', 0, 'MOBILE_MONEY', 15, { phoneNumber: '+256712345678', provider: 'MTN', beneficiary: individual }],
  ['USD_ACCOUNT', 'USD', 2, 'ACH', 15, { accountNumber: '123456789', routingNumber: '021000021', beneficiary: individual }],
  ['VND_ACCOUNT', 'VND', 0, 'BANK_TRANSFER', 15, { bankName: 'Vietcombank', accountNumber: '0123456789', swiftCode: 'BFTVVNVX', beneficiary: individual }],
  ['XAF_ACCOUNT', 'XAF', 0, 'MOBILE_MONEY', 15, { phoneNumber: '+237671234567', provider: 'MTN', region: 'CM', beneficiary: individual }],
  ['XOF_ACCOUNT', 'XOF', 0, 'MOBILE_MONEY', 15, { phoneNumber: '+221771234567', provider: 'Orange', region: 'SN', beneficiary: individual }],
  ['ZAR_ACCOUNT', 'ZAR', 2, 'BANK_TRANSFER', 15, { accountNumber: '123456789', bankName: 'FNB', beneficiary: individual }],
  ['ZMW_ACCOUNT', 'ZMW', 2, 'MOBILE_MONEY', 15, { phoneNumber: '+260971234567', provider: 'Airtel', beneficiary: individual }],
  ['SWIFT_ACCOUNT', 'CHF', 2, 'SWIFT', 15, {
    country: 'CH', swiftCode: 'UBSWCHZH80A', bankName: 'UBS', iban: ibanFor('CH', '0023323312345678A'), beneficiary: individual,
  }],
  ['SPARK_WALLET', 'BTC', 8, null, 5, { address: 'sp1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' }],
  ['LIGHTNING', 'BTC', 8, null, 5, { lightningAddress: 'jane.789@wallet.example.com' }],
  ['SOLANA_WALLET', 'USDC', 6, null, 5, { address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }],
  ['BASE_WALLET', 'USDC', 6, null, 5, { address: EVM }],
  ['POLYGON_WALLET', 'USDC', 6, null, 5, { address: EVM }],
  ['ETHEREUM_WALLET', 'USDT', 6, null, 15, { address: EVM }],
  ['TRON_WALLET', 'USDT', 6, null, 15, { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }],
  ['PLASMA_WALLET', 'USDT', 6, null, 15, { address: EVM }],
];

const MINUTE_MS = 60_000;

/**
 * Quotes to every external account type the service accepts: each is a destination in its own
 * currency, on the reference's rails for it (the default, a named one, a field error for one that
 * does not fit), priced from the sandbox rates, settled like every bank payout (sandbox suffixes
 * included), with the transaction and its webhooks checked against the reference.
 */
describe('quotes: every external account type as a destination', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let owner: FundedCustomer;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    owner = await fundedCustomer(testApp.platform.api, 10_000_000);
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const api = () => testApp.platform.api;

  const createAccount = async (accountType: string, currency: string, accountInfo: Record<string, unknown>, customerId = owner.customer.id): Promise<any> => {
    const response = await api().post('/customers/external-accounts').send({ customerId, currency, accountInfo: { accountType, ...accountInfo } });
    expect([accountType, response.status, response.body.code]).toEqual([accountType, 201, undefined]);
    return response.body;
  };

  const row = (accountType: string): Row => ACCOUNTS.find(([type]) => type === accountType)!;

  it('has one row for every external account type the service accepts', () => {
    expect(ACCOUNTS.map(([type]) => type).sort()).toEqual([...EXTERNAL_ACCOUNT_TYPES].sort());
  });

  it.each(ACCOUNTS)('%s (%s): quoted on its default rail, executed, COMPLETED', async (accountType, currency, decimals, rail, lifetimeMinutes, accountInfo) => {
    const external = await createAccount(accountType, currency, accountInfo);
    const before = await balances(api(), owner.usd.id);

    const created = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000)).expect(201);
    const quote = created.body;
    expect(quote).toMatchObject({
      status: 'PENDING',
      destination: { destinationType: 'ACCOUNT', accountId: external.id, ...(rail ? { paymentRail: rail } : {}) },
      sendingCurrency: { code: 'USD', decimals: 2 },
      receivingCurrency: { code: currency, decimals },
      totalSendingAmount: 10_000,
    });
    if (!rail) expect(quote.destination).not.toHaveProperty('paymentRail');
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(lifetimeMinutes * MINUTE_MS);
    expect(quote.totalReceivingAmount).toBeGreaterThan(0);
    expect(quoteInvariantViolations({
      ...quote, sendingCurrency: quote.sendingCurrency.code, receivingCurrency: quote.receivingCurrency.code,
    })).toEqual([]);

    const executed = await api().post(`/quotes/${quote.id}/execute`).expect(200);
    expect(executed.body.status).toBe('PROCESSING');
    const completed = await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
    expect(completed).toMatchObject({
      id: quote.transactionId,
      status: 'COMPLETED',
      type: 'OUTGOING',
      quoteId: quote.id,
      destination: { destinationType: 'ACCOUNT', accountId: external.id, currency, ...(rail ? { paymentRail: rail } : {}) },
      sentAmount: { amount: 10_000, currency: quote.sendingCurrency },
      receivedAmount: { amount: quote.totalReceivingAmount, currency: quote.receivingCurrency },
    });
    if (!rail) expect(completed.destination).not.toHaveProperty('paymentRail');
    expect((await quoteWithStatus(api(), quote.id, 'COMPLETED')).status).toBe('COMPLETED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: before.available - 10_000, total: before.total - 10_000 });
    // The receiver checks each webhook against the reference; its data is the transaction as GET shows it.
    const webhook = await receiver.waitFor((entry) => entry.body.type === 'OUTGOING_PAYMENT.COMPLETED' && entry.body.data.id === quote.transactionId);
    expect(webhook.body.data).toEqual(completed);
  });

  it.each([
    ['DKK_ACCOUNT', 'SEPA', 15],
    ['EUR_ACCOUNT', 'SEPA', 15],
    ['GHS_ACCOUNT', 'MOBILE_MONEY', 15],
    ['INR_ACCOUNT', 'RTGS', 15],
    ['SGD_ACCOUNT', 'BANK_TRANSFER', 15],
    ['USD_ACCOUNT', 'WIRE', 15],
  ])('%s: a named rail the account carries (%s) is used', async (accountType, paymentRail, lifetimeMinutes) => {
    const [, currency, , , , accountInfo] = row(accountType);
    // INR over RTGS needs a bank account, not a UPI handle.
    const info = accountType === 'INR_ACCOUNT' ? { accountNumber: '123456789012', ifsc: 'HDFC0001234', beneficiary: individual } : accountInfo;
    const external = await createAccount(accountType, currency, info);
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000, {
      destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail },
    })).expect(201)).body;
    expect(quote.destination).toEqual({ destinationType: 'ACCOUNT', accountId: external.id, paymentRail });
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(lifetimeMinutes * MINUTE_MS);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    expect((await transactionWithStatus(api(), quote.transactionId, 'COMPLETED')).destination.paymentRail).toBe(paymentRail);
  });

  it.each([
    ['SWIFT_ACCOUNT', 'ACH', ['SWIFT'], 'The destination account does not support ACH; supported rails: SWIFT'],
    ['HKD_ACCOUNT', 'SWIFT', ['BANK_TRANSFER'], 'The destination account does not support SWIFT; supported rails: BANK_TRANSFER'],
    ['KES_ACCOUNT', 'BANK_TRANSFER', ['MOBILE_MONEY'], 'The destination account does not support BANK_TRANSFER; supported rails: MOBILE_MONEY'],
    // The type carries bank transfers, but this account has a phone only.
    ['BDT_ACCOUNT', 'BANK_TRANSFER', ['MOBILE_MONEY'], 'The destination account does not support BANK_TRANSFER; supported rails: MOBILE_MONEY'],
    // PayNow only when the account lists it.
    ['SGD_ACCOUNT', 'PAYNOW', ['FAST', 'BANK_TRANSFER'], 'The destination account does not support PAYNOW; supported rails: FAST, BANK_TRANSFER'],
    ['DKK_ACCOUNT', 'FASTER_PAYMENTS', ['SEPA', 'SEPA_INSTANT'], 'The destination account does not support FASTER_PAYMENTS; supported rails: SEPA, SEPA_INSTANT'],
    ['TRON_WALLET', 'SWIFT', [], 'The destination account takes no paymentRail; omit destination.paymentRail'],
  ])('%s: a rail it cannot take (%s) is 400 INVALID_INPUT naming destination.paymentRail', async (accountType, paymentRail, rails, message) => {
    const [, currency, , , , accountInfo] = row(accountType);
    const external = await createAccount(accountType, currency, accountInfo);
    const refused = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000, {
      destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail },
    })).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { errors: [{ field: 'destination.paymentRail', constraint: { enum: rails }, message }] },
    });
  });

  it('a RECEIVING-locked quote delivers an exact amount of a 0-decimal currency (VND)', async () => {
    const [, currency, , , , accountInfo] = row('VND_ACCOUNT');
    const external = await createAccount('VND_ACCOUNT', currency, accountInfo);
    const quote = (await api().post('/quotes').send({
      ...accountQuoteBody(owner.usd.id, external.id), lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 2_500_000,
    }).expect(201)).body;
    expect(quote.totalReceivingAmount).toBe(2_500_000);
    // About 95 US dollars at the sandbox's ~26300 dong per dollar, plus fees.
    expect(quote.totalSendingAmount).toBeGreaterThan(9_000);
    expect(quote.totalSendingAmount).toBeLessThan(10_500);
    expect(quoteInvariantViolations({ ...quote, sendingCurrency: 'USD', receivingCurrency: 'VND' })).toEqual([]);
  });

  it.each([
    ['HKD_ACCOUNT', { accountNumber: '123456002' }, 'QUOTE_EXECUTION_FAILED'],
    ['KES_ACCOUNT', { phoneNumber: '+254712345004' }, 'ACCOUNT_CANNOT_RECEIVE'],
    ['SWIFT_ACCOUNT', { iban: ibanFor('CH', '00233233123456002') }, 'QUOTE_EXECUTION_FAILED'],
  ])('%s: the sandbox suffixes settle as for every bank payout (%o -> FAILED %s, refunded)', async (accountType, identifiers, failureReason) => {
    const [, currency, , , , accountInfo] = row(accountType);
    const customer = await fundedCustomer(api(), 50_000);
    const external = await createAccount(accountType, currency, { ...accountInfo, ...identifiers }, customer.customer.id);
    const quote = (await api().post('/quotes').send(accountQuoteBody(customer.usd.id, external.id, 10_000)).expect(201)).body;
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const failed = await transactionWithStatus(api(), quote.transactionId, 'FAILED');
    expect(failed).toMatchObject({ failureReason, refund: { reason: 'TRANSACTION_FAILED' } });
    // The refund ends SANDBOX_REFUND_DELAY_MS after the failure, giving the hold back.
    await eventually(async () => (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body.refund.status === 'COMPLETED');
    expect(await balances(api(), customer.usd.id)).toEqual({ available: 50_000, total: 50_000 });
  });

  it('a SWIFT account in a currency without a sandbox rate is 400 INVALID_CURRENCY naming the account', async () => {
    const [, , , , , accountInfo] = row('SWIFT_ACCOUNT');
    const external = await createAccount('SWIFT_ACCOUNT', 'ISK', { ...accountInfo, country: 'IS' });
    const refused = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id)).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'INVALID_CURRENCY',
      message: expect.stringContaining('No exchange rate for ISK'),
      details: { errors: [{ field: 'destination.accountId', constraint: {}, message: `${external.id} holds ISK, which the service has no exchange rate for` }] },
    });
  });
});
