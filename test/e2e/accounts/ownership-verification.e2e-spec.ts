import { randomUUID } from 'node:crypto';
import { EXTERNAL_ACCOUNT_STREAM } from '../../../src/accounts/streams';
import { CommandStore } from '../../../src/infra/commands/command-store';
import { streamNameFor } from '../../../src/infra/ids';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody } from '../../support/quote-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { TestWallet, evmWallet, solanaWallet, sparkWallet, tronWallet } from './wallet-signers';

const NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'External account not found' };
type Route = 'customers' | 'platform';
const WALLETS: Array<[string, string, Route, () => TestWallet]> = [
  ['ETHEREUM_WALLET', 'USDC', 'customers', evmWallet],
  ['BASE_WALLET', 'USDC', 'platform', evmWallet],
  ['POLYGON_WALLET', 'USDT', 'customers', evmWallet],
  ['PLASMA_WALLET', 'USDT', 'platform', evmWallet],
  ['TRON_WALLET', 'USDT', 'customers', tronWallet],
  ['SOLANA_WALLET', 'USDC', 'platform', solanaWallet],
  ['SPARK_WALLET', 'BTC', 'customers', sparkWallet],
];

/**
 * Ownership verification of self-custody wallets (issue 24 part 3, docs/accounts.md "Ownership
 * verification"): a FIRST_PARTY self-custody wallet of a customer under the travel rule, or of the
 * platform, starts PENDING_OWNERSHIP_VERIFICATION; `.../challenge` and `.../verify` under both
 * `/customers` and `/platform` with real keys of every chain; LIVENESS through the sandbox
 * provider; EXTERNAL_ACCOUNT.STATUS_UPDATED for each move; EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED
 * above the unverified allowance.
 */
describe('external account ownership verification', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let other: TestPlatform;
  let european: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    other = await testApp.createPlatform();
    european = await createIndividual(testApp.platform.api, { region: 'DE' });
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const base = (route: Route) => (route === 'customers' ? '/customers/external-accounts' : '/platform/external-accounts');
  const createWallet = async (route: Route, accountType: string, currency: string, address: string, extra: Record<string, unknown> = {}) => {
    const owner = route === 'customers' ? { customerId: european.id } : {};
    const response = await api().post(base(route)).send({ ...owner, currency, ownershipType: 'FIRST_PARTY', accountInfo: { accountType, address }, ...extra });
    if (response.status !== 201) throw new Error(`createWallet: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const challenge = (route: Route, id: string, method = 'WALLET_SIGNATURE') => api().post(`${base(route)}/${id}/challenge`).send({ method });
  const verify = (route: Route, id: string, signature: string, extra: Record<string, unknown> = {}) => api().post(`${base(route)}/${id}/verify`).send({ signature, ...extra });
  const statusWebhook = (id: string, status: string) =>
    receiver.waitFor((entry) => entry.body.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED' && entry.body.data?.id === id && entry.body.data.status === status);
  const historyOf = async (id: string) => (await api().get('/audit/events').query({ resourceId: id, limit: 100 }).expect(200)).body.data;
  const invalidSignature = (reason: string) => ({
    status: 400,
    code: 'INVALID_INPUT',
    message: expect.stringContaining('the account is UNVERIFIED: start a new challenge'),
    details: { reason, errors: [{ field: 'signature', constraint: {}, message: expect.stringContaining('UNVERIFIED') }] },
  });

  it('starts PENDING_OWNERSHIP_VERIFICATION only for a FIRST_PARTY self-custody wallet under the travel rule or of the platform', async () => {
    const address = evmWallet().address;
    expect((await createWallet('customers', 'BASE_WALLET', 'USDC', address)).status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    expect((await createWallet('platform', 'BASE_WALLET', 'USDC', address)).status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const american = await createIndividual(api(), { region: 'US' });
    const elsewhere = await api().post('/customers/external-accounts').send({ customerId: american.id, currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'BASE_WALLET', address } }).expect(201);
    expect(elsewhere.body.status).toBe('ACTIVE');
    const custodial = await createWallet('customers', 'BASE_WALLET', 'USDC', address, { accountInfo: { accountType: 'BASE_WALLET', address, vaspName: 'Kraken' } });
    expect(custodial.status).toBe('ACTIVE');
    const thirdParty = await createWallet('platform', 'BASE_WALLET', 'USDC', address, { ownershipType: 'THIRD_PARTY' });
    expect(thirdParty.status).toBe('ACTIVE');
  });

  it('under the travel rule a customer declares whose self-custody wallet it is, and who owns another person\'s (400 INVALID_INPUT)', async () => {
    const address = evmWallet().address;
    const undeclared = await api().post('/customers/external-accounts').send({ customerId: european.id, currency: 'USDC', accountInfo: { accountType: 'BASE_WALLET', address } }).expect(400);
    expect(undeclared.body.details.errors).toEqual([
      { field: 'ownershipType', constraint: { enum: ['FIRST_PARTY', 'THIRD_PARTY'] }, message: 'ownershipType is required for a self-custody wallet under the travel rule' },
    ]);
    const anonymous = await api().post('/customers/external-accounts').send({ customerId: european.id, currency: 'USDC', ownershipType: 'THIRD_PARTY', accountInfo: { accountType: 'BASE_WALLET', address } }).expect(400);
    expect(anonymous.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['accountInfo.beneficiary']);
    // The platform's own wallet needs neither (the reference's own example has no ownershipType).
    await api().post('/platform/external-accounts').send({ currency: 'USDC', accountInfo: { accountType: 'BASE_WALLET', address } }).expect(201);
  });

  it.each(WALLETS)('%s (%s, under /%s): the wallet signs the challenge\'s message; verify answers the account ACTIVE, announced and recorded', async (accountType, currency, route, makeWallet) => {
    const wallet = makeWallet();
    const account = await createWallet(route, accountType, currency, wallet.address);
    const issued = await challenge(route, account.id).expect(201);
    expect(issued.body).toEqual({ method: 'WALLET_SIGNATURE', messageToSign: expect.stringContaining(wallet.address), expiresAt: expect.any(String) });
    expect(issued.body.messageToSign).toContain(account.id);
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);

    const verified = await verify(route, account.id, wallet.sign(issued.body.messageToSign)).expect(200);
    expect(verified.body).toEqual({ ...account, status: 'ACTIVE', updatedAt: expect.any(String) });
    expect((await api().get(`${base(route)}/${account.id}`).expect(200)).body).toEqual(verified.body);
    const webhook = await statusWebhook(account.id, 'ACTIVE');
    expect(webhook.signatureValid).toBe(true);
    expect(webhook.body.data).toEqual(verified.body);
    const history = await historyOf(account.id);
    expect(history.map((entry: any) => entry.type)).toEqual(['ExternalAccountCreated', 'OwnershipChallengeIssued', 'OwnershipVerified', 'ExternalAccountStatusChanged']);
    expect(history.every((entry: any) => entry.metadata.actor === `platform:${testApp.platform.clientId}`)).toBe(true);
    // Verified once: nothing is left to prove, and the challenge is used up.
    expect((await challenge(route, account.id).expect(409)).body.details).toEqual({ reason: 'OWNERSHIP_NOT_PENDING', status: 'ACTIVE' });
    expect((await verify(route, account.id, wallet.sign(issued.body.messageToSign)).expect(409)).body.details).toEqual({ reason: 'NO_OUTSTANDING_CHALLENGE' });
  });

  it('another key\'s signature: 400, UNVERIFIED (announced), the challenge used up; a new challenge is PENDING again and the right key verifies', async () => {
    const wallet = evmWallet();
    const account = await createWallet('customers', 'ETHEREUM_WALLET', 'USDC', wallet.address);
    const first = (await challenge('customers', account.id).expect(201)).body;
    const wrong = await verify('customers', account.id, evmWallet().sign(first.messageToSign)).expect(400);
    expect(wrong.body).toEqual(invalidSignature('INVALID_SIGNATURE'));
    expect((await api().get(`/customers/external-accounts/${account.id}`).expect(200)).body.status).toBe('UNVERIFIED');
    expect((await statusWebhook(account.id, 'UNVERIFIED')).body.data).toMatchObject({ id: account.id, status: 'UNVERIFIED', customerId: european.id });
    // The right signature over the used-up challenge is too late: a reused challenge is no challenge.
    expect((await verify('customers', account.id, wallet.sign(first.messageToSign)).expect(409)).body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'No WALLET_SIGNATURE challenge is outstanding for this account; start one first',
      details: { reason: 'NO_OUTSTANDING_CHALLENGE' },
    });

    const second = (await challenge('customers', account.id).expect(201)).body;
    expect(second.messageToSign).not.toBe(first.messageToSign);
    expect((await statusWebhook(account.id, 'PENDING_OWNERSHIP_VERIFICATION')).body.data.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    // A signature over the earlier message does not answer the new challenge.
    expect((await verify('customers', account.id, wallet.sign(first.messageToSign)).expect(400)).body.details.reason).toBe('INVALID_SIGNATURE');
    const third = (await challenge('customers', account.id).expect(201)).body;
    expect((await verify('customers', account.id, wallet.sign(third.messageToSign)).expect(200)).body.status).toBe('ACTIVE');
    expect((await historyOf(account.id)).map((entry: any) => entry.type)).toEqual([
      'ExternalAccountCreated',
      'OwnershipChallengeIssued',
      'OwnershipVerificationFailed', 'ExternalAccountStatusChanged',
      'OwnershipChallengeIssued', 'ExternalAccountStatusChanged',
      'OwnershipVerificationFailed', 'ExternalAccountStatusChanged',
      'OwnershipChallengeIssued', 'ExternalAccountStatusChanged',
      'OwnershipVerified', 'ExternalAccountStatusChanged',
    ]);
  });

  it('an expired challenge: the wallet\'s own signature is 400 CHALLENGE_EXPIRED and the account UNVERIFIED', async () => {
    const wallet = solanaWallet();
    const account = await createWallet('platform', 'SOLANA_WALLET', 'USDC', wallet.address);
    // A challenge issued 16 minutes ago (its lifetime is 15), through the same decision as the route.
    const issued = await testApp.app.get(CommandStore).handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(account.id), {
      type: 'IssueOwnershipChallenge',
      method: 'WALLET_SIGNATURE',
      nonce: randomUUID(),
      now: new Date(Date.now() - 16 * 60_000).toISOString(),
    });
    const message = (issued.events[0].data as { messageToSign: string }).messageToSign;
    expect((await verify('platform', account.id, wallet.sign(message)).expect(400)).body).toEqual(invalidSignature('CHALLENGE_EXPIRED'));
    expect((await api().get(`/platform/external-accounts/${account.id}`).expect(200)).body.status).toBe('UNVERIFIED');
  });

  it('Spark: the signature scheme decides which Bitcoin headers are accepted (Electrum: no segwit header)', async () => {
    const wallet = sparkWallet();
    const account = await createWallet('customers', 'SPARK_WALLET', 'BTC', wallet.address);
    const first = (await challenge('customers', account.id).expect(201)).body;
    const segwit = wallet.sign(first.messageToSign, { header: 'p2wpkh' });
    expect((await verify('customers', account.id, segwit, { signatureScheme: 'electrum' }).expect(400)).body.details.reason).toBe('INVALID_SIGNATURE');
    const second = (await challenge('customers', account.id).expect(201)).body;
    await verify('customers', account.id, wallet.sign(second.messageToSign, { header: 'p2wpkh', highS: true }), { signatureScheme: 'bip137' }).expect(200);
  });

  it('LIVENESS: the hosted link; the sandbox provider completes it (ACTIVE), or fails it for an address ending in 002 (UNVERIFIED); verify is not its answer', async () => {
    const account = await createWallet('platform', 'BASE_WALLET', 'USDC', evmWallet().address);
    const issued = await challenge('platform', account.id, 'LIVENESS').expect(201);
    expect(issued.body).toEqual({ method: 'LIVENESS', verificationLink: expect.stringMatching(/^https:\/\/sandbox\.liveness\.invalid\/sessions\/[0-9a-f-]{36}$/), expiresAt: expect.any(String) });
    expect((await verify('platform', account.id, '0x00').expect(409)).body.details).toEqual({ reason: 'NO_OUTSTANDING_CHALLENGE' });
    const webhook = await statusWebhook(account.id, 'ACTIVE');
    expect((await api().get(`/platform/external-accounts/${account.id}`).expect(200)).body).toEqual(webhook.body.data);

    const failing = await createWallet('customers', 'POLYGON_WALLET', 'USDC', `0x${'ab'.repeat(18)}0002`);
    await challenge('customers', failing.id, 'LIVENESS').expect(201);
    await statusWebhook(failing.id, 'UNVERIFIED');
    expect((await historyOf(failing.id)).map((entry: any) => entry.type)).toEqual([
      'ExternalAccountCreated', 'OwnershipChallengeIssued', 'OwnershipVerificationFailed', 'ExternalAccountStatusChanged',
    ]);
    // Retrying with the other method is a new challenge.
    expect((await challenge('customers', failing.id, 'WALLET_SIGNATURE').expect(201)).body.method).toBe('WALLET_SIGNATURE');
  });

  it('409 where ownership verification does not apply: a bank account, a custodial wallet, a THIRD_PARTY wallet', async () => {
    const bank = await createUsdExternalAccount(api(), european.id);
    expect((await challenge('customers', bank.id).expect(409)).body).toEqual({
      status: 409, code: 'CONFLICT', message: 'Ownership verification applies only to self-custody crypto wallets', details: { reason: 'NOT_SELF_CUSTODY_WALLET' },
    });
    const address = evmWallet().address;
    const custodial = await createWallet('platform', 'BASE_WALLET', 'USDC', address, { accountInfo: { accountType: 'BASE_WALLET', address, vaspName: 'Coinbase' } });
    expect((await challenge('platform', custodial.id, 'LIVENESS').expect(409)).body.details).toEqual({ reason: 'NOT_SELF_CUSTODY_WALLET' });
    const theirs = await createWallet('platform', 'BASE_WALLET', 'USDC', address, { ownershipType: 'THIRD_PARTY' });
    expect((await challenge('platform', theirs.id).expect(409)).body.details).toEqual({ reason: 'NOT_FIRST_PARTY' });
    expect((await verify('platform', theirs.id, '0x00').expect(409)).body.details).toEqual({ reason: 'NO_OUTSTANDING_CHALLENGE' });
  });

  it('400 for a bad body or path id; 404 for an unknown id, another platform\'s, or a customer\'s account under /platform', async () => {
    const account = await createWallet('platform', 'BASE_WALLET', 'USDC', evmWallet().address);
    const method = await challenge('platform', account.id, 'SELFIE').expect(400);
    expect(method.body.details.errors).toEqual([expect.objectContaining({ field: 'method', constraint: { enum: ['WALLET_SIGNATURE', 'LIVENESS'] } })]);
    const empty = await api().post(`/platform/external-accounts/${account.id}/verify`).send({ signatureScheme: 'segwit', extra: 1 }).expect(400);
    expect(empty.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['extra', 'signature', 'signatureScheme']);
    expect((await challenge('platform', 'ExternalAccount:nope').expect(400)).body.details.errors[0].field).toBe('externalAccountId');
    const unknown = 'ExternalAccount:0195f0a0-0000-7000-8000-000000000000';
    expect((await challenge('platform', unknown).expect(404)).body).toEqual(NOT_FOUND);
    expect((await verify('customers', unknown, '0x00').expect(404)).body).toEqual(NOT_FOUND);
    for (const route of ['customers', 'platform'] as const) {
      expect((await other.api.post(`${base(route)}/${account.id}/challenge`).send({ method: 'WALLET_SIGNATURE' }).expect(404)).body).toEqual(NOT_FOUND);
      expect((await other.api.post(`${base(route)}/${account.id}/verify`).send({ signature: '0x00' }).expect(404)).body).toEqual(NOT_FOUND);
    }
    const customers = await createWallet('customers', 'BASE_WALLET', 'USDC', evmWallet().address);
    expect((await challenge('platform', customers.id).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get(`/platform/external-accounts/${account.id}`).expect(200)).body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
  });

  it('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: an unproven wallet receives up to 1,000 USDC by transfer or quote; more once verified', async () => {
    const source = await eventually(async () => (await api().get('/platform/internal-accounts').query({ currency: 'USDC' }).expect(200)).body.data[0]);
    await fund(api(), source.id, 5_000_000_000);
    const wallet = evmWallet();
    const account = await createWallet('platform', 'BASE_WALLET', 'USDC', wallet.address);
    const transfer = (amount: number) => api().post('/transfer-out').send({ source: { accountId: source.id }, destination: { accountId: account.id }, amount });
    const refused = await transfer(1_000_000_001).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      message: "The destination wallet's ownership must be verified before paying it more than the unverified allowance",
      details: { externalAccountId: account.id, accountStatus: 'PENDING_OWNERSHIP_VERIFICATION', currency: 'USDC', allowance: 1_000_000_000, amount: 1_000_000_001 },
    });
    await transfer(1_000_000_000).expect(201);
    const quote = await api().post('/quotes').send(accountQuoteBody(source.id, account.id, 1_500_000_000)).expect(400);
    expect([quote.body.code, quote.body.details.accountStatus]).toEqual(['EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', 'PENDING_OWNERSHIP_VERIFICATION']);
    await api().post('/quotes').send(accountQuoteBody(source.id, account.id, 500_000_000)).expect(201);

    const issued = (await challenge('platform', account.id).expect(201)).body;
    await verify('platform', account.id, wallet.sign(issued.messageToSign)).expect(200);
    await transfer(1_000_000_001).expect(201);
    await api().post('/quotes').send(accountQuoteBody(source.id, account.id, 1_500_000_000)).expect(201);
  });
});
