import { ibanRemainder } from '../../../src/accounts/domain/external-account/account-identifiers';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { clabe, createIndividual, createUsdExternalAccount, germanIban } from '../../support/customer-fixtures';

/** An IBAN for `country` and `bban` with its mod-97 check digits. */
function ibanFor(country: string, bban: string): string {
  const check = 98 - ibanRemainder(`${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55)));
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

const individual = { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' };
const business = { beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd' };
const address = { line1: '1 Main St', postalCode: '10115', country: 'DE' };

/**
 * `/customers/external-accounts`: every account type of the reference (its field names, enums and
 * beneficiary shapes), validation, name checks, delete, trust. Every answer is checked against the
 * reference by the test client.
 */
describe('external accounts', () => {
  let testApp: TestApp;
  let customer: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    customer = await createIndividual(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const create = (body: Record<string, unknown>) => testApp.platform.api.post('/customers/external-accounts').send({ customerId: customer.id, ...body });

  it('creates a USD account (201) with every reference field, the beneficiary name check, and GET reads it back', async () => {
    const response = await create({
      currency: 'USD',
      platformAccountId: 'bank-1',
      ownershipType: 'THIRD_PARTY',
      defaultUmaDepositAccount: true,
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        bankName: 'Chase',
        bankAccountType: 'CHECKING',
        intermediaryBankName: 'Fed Bank',
        intermediaryRoutingNumber: '011000015',
        fiToFiInformation: 'invoice 42',
        paymentRails: ['ACH', 'RTP'],
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'Jane Doe',
          nationality: 'US',
          birthDate: '1990-01-02',
          email: 'jane@example.com',
          phoneNumber: '+14155550123',
          countryOfResidence: 'US',
          address: { line1: '1 Main', postalCode: '10001', country: 'US' },
        },
      },
    }).expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^ExternalAccount:[0-9a-f-]{36}$/),
      customerId: customer.id,
      status: 'ACTIVE',
      platformAccountId: 'bank-1',
      ownershipType: 'THIRD_PARTY',
      currency: 'USD',
      defaultUmaDepositAccount: true,
      trusted: false,
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        bankName: 'Chase',
        bankAccountType: 'CHECKING',
        intermediaryBankName: 'Fed Bank',
        intermediaryRoutingNumber: '011000015',
        fiToFiInformation: 'invoice 42',
        paymentRails: ['ACH', 'RTP'],
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'Jane Doe',
          nationality: 'US',
          birthDate: '1990-01-02',
          email: 'jane@example.com',
          phoneNumber: '+14155550123',
          countryOfResidence: 'US',
          address: { line1: '1 Main', postalCode: '10001', country: 'US' },
        },
      },
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Jane Doe' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await testApp.platform.api.get(`/customers/external-accounts/${response.body.id}`).expect(200);
    expect(read.body).toEqual(response.body);
  });

  it('defaults: no ownershipType, defaultUmaDepositAccount false, a BUSINESS beneficiary named by legalName', async () => {
    const response = await create({
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { ...business, taxId: '12-3456789' } },
    }).expect(201);
    expect(response.body).not.toHaveProperty('ownershipType');
    expect(response.body).not.toHaveProperty('platformAccountId');
    expect(response.body.defaultUmaDepositAccount).toBe(false);
    expect(response.body.accountInfo.beneficiary).toEqual({ beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd', taxId: '12-3456789' });
    expect(response.body.beneficiaryVerifiedData).toEqual({ fullName: 'Acme Ltd' });
  });

  // One valid account of every type the reference defines; the contract check validates each answer.
  it.each([
    ['AED', { accountType: 'AED_ACCOUNT', iban: ibanFor('AE', '0331234567890123456'), beneficiary: { ...individual, address } }, ['BANK_TRANSFER']],
    ['BDT', { accountType: 'BDT_ACCOUNT', bankName: 'bKash', phoneNumber: '+8801712345678', beneficiary: individual }, ['MOBILE_MONEY']],
    ['BRL', { accountType: 'BRL_ACCOUNT', pixKey: 'jane@example.com', pixKeyType: 'EMAIL', taxId: '12345678901', beneficiary: individual }, ['PIX']],
    ['BWP', { accountType: 'BWP_ACCOUNT', phoneNumber: '+26771234567', provider: 'Orange', beneficiary: individual }, ['MOBILE_MONEY']],
    ['CAD', { accountType: 'CAD_ACCOUNT', bankCode: '001', branchCode: '00011', accountNumber: '1234567', beneficiary: { ...individual, registrationNumber: 'R-1' } }, ['BANK_TRANSFER']],
    ['CNY', { accountType: 'CNY_ACCOUNT', bankName: 'ICBC', accountNumber: '6222021234567890', beneficiary: individual }, ['BANK_TRANSFER']],
    ['COP', { accountType: 'COP_ACCOUNT', bankName: 'Bancolombia', accountNumber: '1234567890', bankAccountType: 'SAVINGS', beneficiary: { ...individual, documentType: 'CC', documentNumber: '1020304050' } }, ['BANK_TRANSFER']],
    ['DKK', { accountType: 'DKK_ACCOUNT', iban: ibanFor('DK', '00400440116243'), swiftCode: 'DABADKKK', beneficiary: individual }, ['SEPA', 'SEPA_INSTANT']],
    ['EGP', { accountType: 'EGP_ACCOUNT', bankName: 'CIB', iban: ibanFor('EG', '0019000500000000263180002'), beneficiary: individual }, ['BANK_TRANSFER']],
    ['EUR', { accountType: 'EUR_ACCOUNT', iban: germanIban('789'), swiftCode: 'COBADEFFXXX', beneficiary: { ...individual, countryOfResidence: 'DE' } }, ['SEPA', 'SEPA_INSTANT']],
    ['GBP', { accountType: 'GBP_ACCOUNT', accountNumber: '12345678', sortCode: '123456', beneficiary: business }, ['FASTER_PAYMENTS']],
    ['GHS', { accountType: 'GHS_ACCOUNT', bankName: 'GCB', accountNumber: '1234567890', phoneNumber: '+233201234567', beneficiary: individual }, ['BANK_TRANSFER', 'MOBILE_MONEY']],
    ['GTQ', { accountType: 'GTQ_ACCOUNT', accountNumber: '1234567', bankAccountType: 'CHECKING', bankName: 'Banrural', beneficiary: { ...individual, countryOfResidence: 'GT', phoneNumber: '+50221234567' } }, ['BANK_TRANSFER']],
    ['HKD', { accountType: 'HKD_ACCOUNT', bankName: 'HSBC', accountNumber: '123456789', swiftCode: 'HSBCHKHH', beneficiary: individual }, ['BANK_TRANSFER']],
    ['HTG', { accountType: 'HTG_ACCOUNT', phoneNumber: '+50934567890', beneficiary: individual }, ['MOBILE_MONEY']],
    ['IDR', { accountType: 'IDR_ACCOUNT', bankName: 'BCA', accountNumber: '1234567890', swiftCode: 'CENAIDJA', phoneNumber: '+628123456789', beneficiary: individual }, ['BANK_TRANSFER']],
    ['INR', { accountType: 'INR_ACCOUNT', vpa: 'jane@okbank', beneficiary: individual }, ['UPI']],
    ['INR', { accountType: 'INR_ACCOUNT', accountNumber: '123456789012', ifsc: 'HDFC0001234', bankName: 'HDFC', beneficiary: individual }, ['NEFT', 'RTGS']],
    ['JMD', { accountType: 'JMD_ACCOUNT', accountNumber: '123456', branchCode: '12345', bankAccountType: 'SAVINGS', bankName: 'NCB', beneficiary: { ...individual, address, phoneNumber: '+18765551234' } }, ['BANK_TRANSFER']],
    ['KES', { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'M-Pesa', beneficiary: individual }, ['MOBILE_MONEY']],
    ['MWK', { accountType: 'MWK_ACCOUNT', phoneNumber: '+265991234567', provider: 'Airtel', beneficiary: individual }, ['MOBILE_MONEY']],
    ['MXN', { accountType: 'MXN_ACCOUNT', clabeNumber: clabe(), beneficiary: individual }, ['SPEI']],
    ['MYR', { accountType: 'MYR_ACCOUNT', bankName: 'Maybank', accountNumber: '123456789012', swiftCode: 'MBBEMYKL', beneficiary: individual }, ['BANK_TRANSFER']],
    ['NGN', { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'GTBank', beneficiary: individual }, ['BANK_TRANSFER']],
    ['PHP', { accountType: 'PHP_ACCOUNT', bankName: 'BDO', accountNumber: '12345678', beneficiary: individual }, ['BANK_TRANSFER']],
    ['PKR', { accountType: 'PKR_ACCOUNT', bankName: 'HBL', iban: ibanFor('PK', 'SCBL0000001123456702'), beneficiary: individual }, ['BANK_TRANSFER']],
    ['RWF', { accountType: 'RWF_ACCOUNT', phoneNumber: '+250781234567', provider: 'MTN', beneficiary: individual }, ['MOBILE_MONEY']],
    ['SGD', { accountType: 'SGD_ACCOUNT', accountNumber: '1234567890', swiftCode: 'DBSSSGSG', beneficiary: individual }, ['FAST', 'BANK_TRANSFER']],
    ['USD', { accountType: 'SLV_ACCOUNT', phoneNumber: '+50371234567', paymentRails: ['MOBILE_MONEY'], beneficiary: individual }, ['MOBILE_MONEY']],
    ['THB', { accountType: 'THB_ACCOUNT', bankName: 'Bangkok Bank', accountNumber: '1234567890', swiftCode: 'BKKBTHBK', beneficiary: individual }, ['BANK_TRANSFER']],
    ['TZS', { accountType: 'TZS_ACCOUNT', phoneNumber: '+255712345678', provider: 'Vodacom', beneficiary: individual }, ['MOBILE_MONEY']],
    ['UGX', { accountType: 'UGX_ACCOUNT', phoneNumber: '+256712345678', provider: 'MTN', beneficiary: individual }, ['MOBILE_MONEY']],
    ['VND', { accountType: 'VND_ACCOUNT', bankName: 'Vietcombank', accountNumber: '0123456789', swiftCode: 'BFTVVNVX', beneficiary: individual }, ['BANK_TRANSFER']],
    ['XAF', { accountType: 'XAF_ACCOUNT', phoneNumber: '+237671234567', provider: 'MTN', region: 'CM', beneficiary: individual }, ['MOBILE_MONEY']],
    ['XOF', { accountType: 'XOF_ACCOUNT', phoneNumber: '+221771234567', provider: 'Orange', region: 'SN', beneficiary: individual }, ['MOBILE_MONEY']],
    ['ZAR', { accountType: 'ZAR_ACCOUNT', accountNumber: '123456789', bankName: 'FNB', beneficiary: individual }, ['BANK_TRANSFER']],
    ['ZMW', { accountType: 'ZMW_ACCOUNT', phoneNumber: '+260971234567', provider: 'Airtel', beneficiary: individual }, ['MOBILE_MONEY']],
    ['CHF', { accountType: 'SWIFT_ACCOUNT', country: 'CH', swiftCode: 'UBSWCHZH80A', bankName: 'UBS', iban: ibanFor('CH', '0023323312345678A'), beneficiary: individual }, ['SWIFT']],
    ['BTC', { accountType: 'SPARK_WALLET', address: 'sp1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' }, ['SPARK']],
    ['BTC', { accountType: 'LIGHTNING', lightningAddress: 'jane.789@wallet.example.com' }, ['LIGHTNING']],
    ['BTC', { accountType: 'LIGHTNING', invoice: 'lnbc15u1p3xnhl2pp5jptserfk3zk4qy42tlucycrfwxhydvlemu9pqr93tuzlv9cc7g3s' }, ['LIGHTNING']],
    ['BTC', { accountType: 'LIGHTNING', bolt12: 'lno1pgqpvggzfyqv8gg09k4q35tc5mkmzr7re2nm20gw5qp5d08r3w5s6zzu4t5q' }, ['LIGHTNING']],
    ['USDC', { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', vaspName: 'Phantom' }, ['SOLANA']],
    ['USDC', { accountType: 'BASE_WALLET', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', beneficiary: { ...individual, countryOfResidence: 'FR' } }, ['BASE']],
    ['USDC', { accountType: 'POLYGON_WALLET', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', beneficiary: business }, ['POLYGON']],
    ['USDT', { accountType: 'ETHEREUM_WALLET', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' }, ['ETHEREUM']],
    ['USDT', { accountType: 'PLASMA_WALLET', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' }, ['PLASMA']],
    ['USDT', { accountType: 'TRON_WALLET', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, ['TRON']],
  ])('creates a %s account of type %o', async (currency, accountInfo, rails) => {
    const response = await create({ currency, accountInfo }).expect(201);
    expect(response.body.currency).toBe(currency);
    expect(response.body.accountInfo).toEqual({ ...accountInfo, paymentRails: rails });
    const read = await testApp.platform.api.get(`/customers/external-accounts/${response.body.id}`).expect(200);
    expect(read.body).toEqual(response.body);
  });

  it('lists every shape error in one 400 INVALID_INPUT', async () => {
    const response = await testApp.platform.api
      .post('/customers/external-accounts')
      .send({
        customerId: 'Customer:nope',
        currency: 'xyz',
        platformAccountId: '',
        ownershipType: 'MINE',
        defaultUmaDepositAccount: 'yes',
        extra: 1,
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '', paymentRails: ['SEPA'], iban: 'x', bankAccountType: 'CHEQUE', beneficiary: { beneficiaryType: 'ROBOT' } },
      })
      .expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual(
      [
        ['accountInfo.accountNumber', { minLength: 1, maxLength: 34 }],
        ['accountInfo.bankAccountType', { enum: ['CHECKING', 'SAVINGS'] }],
        ['accountInfo.beneficiary.beneficiaryType', { enum: ['INDIVIDUAL', 'BUSINESS'] }],
        ['accountInfo.iban', {}],
        ['accountInfo.paymentRails', { enum: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] }],
        ['accountInfo.routingNumber', {}],
        ['currency', { pattern: '^[A-Z]{3,4}$' }],
        ['customerId', { format: 'Customer-id' }],
        ['defaultUmaDepositAccount', {}],
        ['extra', {}],
        ['ownershipType', { enum: ['FIRST_PARTY', 'THIRD_PARTY'] }],
        ['platformAccountId', { minLength: 1 }],
      ].sort(),
    );
    const noType = await create({ currency: 'USD', accountInfo: {} }).expect(400);
    expect(noType.body.details.errors).toEqual([{ field: 'accountInfo.accountType', constraint: {}, message: 'accountInfo.accountType is required' }]);
    const badType = await create({ currency: 'USD', accountInfo: { accountType: 'CHEQUE' } }).expect(400);
    expect(badType.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'accountInfo.accountType', constraint: { enum: expect.arrayContaining(['DKK_ACCOUNT', 'SWIFT_ACCOUNT']) } }));
  });

  it('400 INVALID_INPUT for the beneficiary each type requires (countryOfResidence for EUR, address for AED, none for Lightning)', async () => {
    const iban = germanIban('789');
    const missing = await create({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban } }).expect(400);
    expect(missing.body.details.errors).toEqual([{ field: 'accountInfo.beneficiary', constraint: {}, message: 'accountInfo.beneficiary is required for EUR_ACCOUNT' }]);
    const noCountry = await create({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban, beneficiary: individual } }).expect(400);
    expect(noCountry.body.details.errors).toEqual([
      { field: 'accountInfo.beneficiary.countryOfResidence', constraint: {}, message: 'accountInfo.beneficiary.countryOfResidence is required for EUR_ACCOUNT' },
    ]);
    const aed = await create({ currency: 'AED', accountInfo: { accountType: 'AED_ACCOUNT', iban: ibanFor('AE', '0331234567890123456'), beneficiary: individual } }).expect(400);
    expect(aed.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['accountInfo.beneficiary.address']);
    // A business beneficiary has no country requirement; an individual's extras belong to their types only.
    await create({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban, beneficiary: business } }).expect(201);
    const documents = await create({
      currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban, beneficiary: { ...individual, countryOfResidence: 'DE', documentType: 'CC', legalName: 'x' } },
    }).expect(400);
    expect(documents.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['accountInfo.beneficiary.documentType', 'accountInfo.beneficiary.legalName']);
    const wallet = await create({ currency: 'USDC', accountInfo: { accountType: 'BASE_WALLET', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', beneficiary: { ...individual, nationality: 'FR' } } }).expect(400);
    expect(wallet.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['accountInfo.beneficiary.countryOfResidence', 'accountInfo.beneficiary.nationality']);
    const lightning = await create({ currency: 'BTC', accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'a@b.co', beneficiary: individual } }).expect(400);
    expect(lightning.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['accountInfo.beneficiary']);
  });

  it('400 INVALID_INPUT for names the reference does not use (MXN clabe, USD accountCategory) and for BITCOIN_L1', async () => {
    const mxn = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: clabe(), beneficiary: individual } }).expect(400);
    expect(mxn.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['accountInfo.clabe', 'accountInfo.clabeNumber']);
    const usd = await create({ currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1', routingNumber: '021000021', accountCategory: 'CHECKING', beneficiary: individual } }).expect(400);
    expect(usd.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['accountInfo.accountCategory']);
    const btc = await create({ currency: 'BTC', accountInfo: { accountType: 'BITCOIN_L1', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } }).expect(400);
    expect(btc.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['accountInfo.accountType']);
    const brl = await create({ currency: 'BRL', accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: 'jane@example.com', beneficiary: individual } }).expect(400);
    expect(brl.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['accountInfo.pixKeyType', 'accountInfo.taxId']);
    const kes = await create({ currency: 'KES', accountInfo: { accountType: 'KES_ACCOUNT', phoneNumber: '+255712345678', provider: 'M-Pesa', beneficiary: individual } }).expect(400);
    expect(kes.body.details.errors).toEqual([{ field: 'accountInfo.phoneNumber', constraint: { format: 'e164-phone', pattern: '^\\+254[0-9]{9}$' }, message: expect.any(String) }]);
  });

  it('400 INVALID_INPUT when the currency does not fit the account type', async () => {
    const response = await create({ currency: 'EUR', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: individual } }).expect(400);
    expect(response.body.details.errors).toEqual([{ field: 'currency', constraint: { enum: ['USD'] }, message: 'USD_ACCOUNT accounts hold USD' }]);
  });

  it('400 INVALID_BANK_ACCOUNT for identifiers failing their checksum', async () => {
    const routing = await create({ currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000022', beneficiary: individual } }).expect(400);
    expect(routing.body).toEqual({
      status: 400,
      code: 'INVALID_BANK_ACCOUNT',
      message: 'The account identifiers are not valid',
      details: { errors: [{ field: 'accountInfo.routingNumber', constraint: { format: 'aba-routing-number' }, message: 'routingNumber fails the ABA checksum' }] },
    });
    const iban = await create({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE00370400440532013000', beneficiary: business } }).expect(400);
    expect(iban.body.code).toBe('INVALID_BANK_ACCOUNT');
    const dkk = await create({ currency: 'DKK', accountInfo: { accountType: 'DKK_ACCOUNT', iban: 'DK0000400440116243', beneficiary: business } }).expect(400);
    expect(dkk.body.details.errors[0].field).toBe('accountInfo.iban');
    const badClabe = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '032180000118359710', beneficiary: individual } }).expect(400);
    expect(badClabe.body).toMatchObject({ code: 'INVALID_BANK_ACCOUNT', details: { errors: [{ field: 'accountInfo.clabeNumber', constraint: { format: 'clabe' } }] } });
  });

  it.each([
    ['102', 'NOT_MATCHED', undefined],
    ['103', 'PARTIAL_MATCH', { fullName: 'J. Doe' }],
    ['104', 'PENDING', undefined],
    ['106', 'UNSUPPORTED', undefined],
    ['107', 'CHECKED_BY_RECEIVING_FI', undefined],
    ['101', 'MATCHED', { fullName: 'Jane Doe' }],
  ])('sandbox name check: suffix %s gives %s', async (suffix, status, verifiedData) => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id, suffix);
    expect(account.beneficiaryVerificationStatus).toBe(status);
    expect(account.beneficiaryVerifiedData).toEqual(verifiedData);
  });

  it('sandbox name check reads the primary identifier of every type (clabeNumber, pixKey, phoneNumber, iban)', async () => {
    // The CLABE's 18th digit is its check digit: vary the 15th until the whole ends in 102.
    const clabe102 = Array.from({ length: 10 }, (_, digit) => clabe(`03218000011835${digit}10`)).find((candidate) => candidate.endsWith('102'))!;
    const mxn = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: clabe102, beneficiary: individual } }).expect(201);
    expect(mxn.body.beneficiaryVerificationStatus).toBe('NOT_MATCHED');
    const brl = await create({ currency: 'BRL', accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: '+5511999990106', pixKeyType: 'PHONE', taxId: '12345678901', beneficiary: individual } }).expect(201);
    expect(brl.body.beneficiaryVerificationStatus).toBe('UNSUPPORTED');
    const kes = await create({ currency: 'KES', accountInfo: { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345103', provider: 'M-Pesa', beneficiary: individual } }).expect(201);
    expect(kes.body).toMatchObject({ beneficiaryVerificationStatus: 'PARTIAL_MATCH', beneficiaryVerifiedData: { fullName: 'J. Doe' } });
    const refused = await create({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: germanIban('105'), beneficiary: business } }).expect(400);
    expect(refused.body).toMatchObject({ code: 'INVALID_BANK_ACCOUNT', details: { errors: [{ field: 'accountInfo.iban' }] } });
  });

  it('sandbox name check: suffix 104 answers PENDING, then resolves to MATCHED (SANDBOX_BENEFICIARY_CHECK_DELAY_MS)', async () => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id, '104');
    expect(account.beneficiaryVerificationStatus).toBe('PENDING');
    expect(account.beneficiaryVerifiedData).toBeUndefined();
    expect(account.status).toBe('UNDER_REVIEW');
    const resolved = await eventually(async () => {
      const read = await testApp.platform.api.get(`/customers/external-accounts/${account.id}`).expect(200);
      return read.body.beneficiaryVerificationStatus !== 'PENDING' && read.body;
    });
    expect(resolved).toEqual({
      ...account,
      status: 'ACTIVE',
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Jane Doe' },
      updatedAt: expect.any(String),
    });
    expect(Date.parse(resolved.updatedAt)).toBeGreaterThan(Date.parse(account.createdAt));
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: account.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual(['ExternalAccountCreated', 'BeneficiaryVerificationResolved', 'ExternalAccountStatusChanged']);

    // An account deleted while its check is pending stays deleted: the late answer is a no-op.
    const deleted = await createUsdExternalAccount(testApp.platform.api, customer.id, '104');
    await testApp.platform.api.delete(`/customers/external-accounts/${deleted.id}`).expect(204);
    const other = await createUsdExternalAccount(testApp.platform.api, customer.id, '104');
    await eventually(async () => {
      const read = await testApp.platform.api.get(`/customers/external-accounts/${other.id}`).expect(200);
      return read.body.beneficiaryVerificationStatus === 'MATCHED';
    });
    await testApp.platform.api.get(`/customers/external-accounts/${deleted.id}`).expect(404);
    const deletedHistory = await testApp.platform.api.get('/audit/events').query({ resourceId: deleted.id }).expect(200);
    expect(deletedHistory.body.data.map((entry: { type: string }) => entry.type)).toEqual(['ExternalAccountCreated', 'ExternalAccountDeleted']);
  });

  it('sandbox name check: suffix 105 refuses the account with 400 INVALID_BANK_ACCOUNT; domain identifiers use the user part', async () => {
    const refused = await create({
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456105', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane' } },
    }).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'INVALID_BANK_ACCOUNT',
      message: 'The account cannot receive payments',
      details: { errors: [{ field: 'accountInfo.accountNumber', constraint: {}, message: 'The receiving institution reports this account as invalid' }] },
    });
    const lightning = await create({ currency: 'BTC', accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'alice.105@example.com' } }).expect(400);
    expect(lightning.body.details.errors[0].field).toBe('accountInfo.lightningAddress');
  });

  it('400 INVALID_INPUT on customerId for an unknown, other platform\'s or deleted customer (the reference declares no 404 or 410 here)', async () => {
    const info = { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: individual };
    const unknown = await testApp.platform.api
      .post('/customers/external-accounts')
      .send({ customerId: 'Customer:01900000-0000-7000-8000-000000000000', currency: 'USD', accountInfo: info })
      .expect(400);
    expect(unknown.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The request has invalid fields',
      details: { errors: [{ field: 'customerId', constraint: {}, message: 'No such customer' }] },
    });
    const other = await testApp.createPlatform();
    const foreign = await other.api.post('/customers/external-accounts').send({ customerId: customer.id, currency: 'USD', accountInfo: info }).expect(400);
    expect(foreign.body.details.errors[0].field).toBe('customerId');
    const gone = await createIndividual(testApp.platform.api);
    await testApp.platform.api.delete(`/customers/${gone.id}`).expect(200);
    const deleted = await testApp.platform.api.post('/customers/external-accounts').send({ customerId: gone.id, currency: 'USD', accountInfo: info }).expect(400);
    expect(deleted.body.details.errors).toEqual([{ field: 'customerId', constraint: {}, message: 'The customer was deleted' }]);
  });

  it('GET list filters by customer and currency (any code), paginates; other platforms see nothing', async () => {
    const owner = await createIndividual(testApp.platform.api);
    const first = await createUsdExternalAccount(testApp.platform.api, owner.id, '111');
    const second = await createUsdExternalAccount(testApp.platform.api, owner.id, '222');
    const page1 = await testApp.platform.api.get('/customers/external-accounts').query({ customerId: owner.id, limit: 1 }).expect(200);
    expect(page1.body).toEqual({ data: [first], hasMore: true, nextCursor: expect.any(String), totalCount: 2 });
    const page2 = await testApp.platform.api.get('/customers/external-accounts').query({ customerId: owner.id, limit: 1, cursor: page1.body.nextCursor }).expect(200);
    expect(page2.body).toEqual({ data: [second], hasMore: false, totalCount: 2 });
    const eur = await testApp.platform.api.get('/customers/external-accounts').query({ customerId: owner.id, currency: 'EUR' }).expect(200);
    expect(eur.body.totalCount).toBe(0);
    const dkk = await testApp.platform.api.get('/customers/external-accounts').query({ customerId: owner.id, currency: 'DKK' }).expect(200);
    expect(dkk.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const other = await testApp.createPlatform();
    expect((await other.api.get('/customers/external-accounts').query({ customerId: owner.id }).expect(200)).body.totalCount).toBe(0);
    expect((await other.api.get(`/customers/external-accounts/${first.id}`).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
    // No 400 is declared for a read: an id that cannot exist is not found.
    expect((await testApp.platform.api.get('/customers/external-accounts/nope').expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
  });

  it('DELETE answers 204, then the account is gone (404 REFERENCE_NOT_FOUND)', async () => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const other = await testApp.createPlatform();
    await other.api.delete(`/customers/external-accounts/${account.id}`).expect(404);
    const response = await testApp.platform.api.delete(`/customers/external-accounts/${account.id}`).expect(204);
    expect(response.text).toBe('');
    const read = await testApp.platform.api.get(`/customers/external-accounts/${account.id}`).expect(404);
    expect(read.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'External account not found' });
    expect((await testApp.platform.api.delete(`/customers/external-accounts/${account.id}`).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
    expect((await testApp.platform.api.delete('/customers/external-accounts/nope').expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
  });

  it('trust is for SCA regions only: 409 for a US customer', async () => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const response = await testApp.platform.api.post(`/customers/external-accounts/${account.id}/trust`).expect(409);
    expect(response.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'Strong Customer Authentication does not apply to this customer',
      details: { reason: 'SCA_NOT_REQUIRED' },
    });
    await testApp.platform.api.post(`/customers/external-accounts/${account.id}/untrust`).expect(409);
  });

  it('EU customer: trust, then DELETE is 409 BENEFICIARY_TRUSTED until untrusted', async () => {
    const european = await createIndividual(testApp.platform.api, { region: 'DE' });
    const account = (await create({
      customerId: european.id, currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: germanIban('789'), beneficiary: { ...individual, countryOfResidence: 'DE' } },
    }).expect(201)).body;
    const base = `/customers/external-accounts/${account.id}`;
    await testApp.platform.api.post(`${base}/trust/confirm`).send({ code: '123456' }).expect(409);
    const started = await testApp.platform.api.post(`${base}/trust`).expect(200);
    expect(started.body).toEqual({
      externalAccountId: account.id,
      action: 'TRUST',
      scaChallenge: { id: expect.stringMatching(/^ScaChallenge:/), expiresAt: expect.any(String), factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] },
    });
    const wrong = await testApp.platform.api.post(`${base}/trust/confirm`).send({ code: '000000' }).expect(400);
    expect(wrong.body.details.errors[0].field).toBe('code');
    const missing = await testApp.platform.api.post(`${base}/trust/confirm`).send({}).expect(400);
    expect(missing.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'code', constraint: {} }));
    const badId = await testApp.platform.api.post(`${base}/trust/confirm`).send({ code: '123456', challengeId: 'nope' }).expect(400);
    expect(badId.body.details.errors).toEqual([{ field: 'challengeId', constraint: { format: 'ScaChallenge-id' }, message: expect.any(String) }]);
    const otherChallenge = await testApp.platform.api
      .post(`${base}/trust/confirm`)
      .send({ code: '123456', challengeId: 'ScaChallenge:01900000-0000-7000-8000-000000000000' })
      .expect(409);
    expect(otherChallenge.body.details).toEqual({ reason: 'CHALLENGE_MISMATCH', challengeId: started.body.scaChallenge.id });
    // The reference's nullable proof fields: null is absent.
    const trusted = await testApp.platform.api
      .post(`${base}/trust/confirm`)
      .send({ code: '123456', challengeId: started.body.scaChallenge.id, passkeyAssertion: null, origin: null })
      .expect(200);
    expect(trusted.body.trusted).toBe(true);
    await testApp.platform.api.post(`${base}/trust`).expect(409);

    const blocked = await testApp.platform.api.delete(base).expect(409);
    expect(blocked.body).toEqual({
      status: 409,
      code: 'BENEFICIARY_TRUSTED',
      message: 'The external account is a trusted beneficiary; untrust it before deleting it',
    });
    await testApp.platform.api.post(`${base}/untrust`).expect(200);
    const untrusted = await testApp.platform.api.post(`${base}/untrust/confirm`).send({ code: '123456' }).expect(200);
    expect(untrusted.body.trusted).toBe(false);
    await testApp.platform.api.delete(base).expect(204);
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: account.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual([
      'ExternalAccountCreated', 'BeneficiaryTrustChallengeIssued', 'BeneficiaryTrusted', 'BeneficiaryTrustChallengeIssued',
      'BeneficiaryUntrusted', 'ExternalAccountDeleted',
    ]);
  });

  it('honours Idempotency-Key on creation', async () => {
    const key = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';
    const body = {
      customerId: customer.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '99999999', routingNumber: '021000021', beneficiary: individual },
    };
    const first = await testApp.platform.api.post('/customers/external-accounts').set('Idempotency-Key', key).send(body).expect(201);
    const replay = await testApp.platform.api.post('/customers/external-accounts').set('Idempotency-Key', key).send(body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
  });
});
