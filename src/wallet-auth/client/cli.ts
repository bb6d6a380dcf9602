/**
 * `npm run wallet -- <command>`: an embedded-wallet client for a running sandbox, built on the
 * client toolkit. `walkthrough` takes a new user through everything: a customer and its wallet,
 * email OTP login, a signed action, then a quote from the wallet executed with a stamp by the
 * session key. Other commands work on an existing wallet.
 *
 * Connection: WALLET_API_URL (default http://localhost:8080/2025-10-13), PLATFORM_CLIENT_ID and
 * PLATFORM_CLIENT_SECRET (or --client-id / --client-secret), else the sandbox credentials saved
 * in $DATA_DIR/sandbox-credentials.json by `npm start`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walletKeyPairFromPrivateKey } from './keys';
import { WalletApi, WalletApiError, WalletLogin, embeddedWalletPayload } from './wallet-api';

const USAGE = `Usage: npm run wallet -- <command> [options]

Commands:
  walkthrough [--email <address>] [--otp <code>]      new customer + wallet, email OTP login, a signed action,
                                                      then a funded quote from the wallet, executed with a stamp
  login --account <id> [--credential <id>] [--otp <code>] [--key-file <path>]
                                                      email/SMS OTP login; saves the session key to the key file
  credentials --account <id>                          the wallet's credentials
  sessions --account <id>                             the wallet's live sessions
  privacy --account <id> --private <true|false> [--key-file <path>]
                                                      signed PATCH /internal-accounts/{id}
  execute --quote <id> [--key-file <path>]            POST /quotes/{id}/execute stamped with the saved session key

Options: --base-url <url> --client-id <id> --client-secret <secret>   (default key file: wallet-session.json)`;

type Options = Record<string, string>;

function parseArguments(argv: string[]): { command: string | undefined; options: Options } {
  const [command, ...rest] = argv;
  const options: Options = {};
  for (let index = 0; index < rest.length; index++) {
    const name = rest[index];
    if (!name.startsWith('--')) throw new Error(`unexpected argument ${name}`);
    const value = rest[index + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
    options[name.slice(2)] = value;
    index++;
  }
  return { command, options };
}

function connect(options: Options): WalletApi {
  const baseUrl = options['base-url'] ?? process.env.WALLET_API_URL ?? 'http://localhost:8080/2025-10-13';
  let clientId = options['client-id'] ?? process.env.PLATFORM_CLIENT_ID;
  let clientSecret = options['client-secret'] ?? process.env.PLATFORM_CLIENT_SECRET;
  const saved = join(process.env.DATA_DIR || '.data', 'sandbox-credentials.json');
  if ((!clientId || !clientSecret) && existsSync(saved)) {
    const credentials = JSON.parse(readFileSync(saved, 'utf8')) as { clientId: string; clientSecret: string };
    clientId = credentials.clientId;
    clientSecret = credentials.clientSecret;
  }
  if (!clientId || !clientSecret) throw new Error('set PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET (or --client-id / --client-secret)');
  return new WalletApi({ baseUrl: baseUrl.replace(/\/$/, ''), clientId, clientSecret });
}

function step(text: string): void {
  process.stdout.write(`- ${text}\n`);
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw new Error(`--${name} is required`);
  return value;
}

interface KeyFile {
  accountId: string;
  sessionId: string;
  expiresAt: string;
  privateKey: string;
}

function saveKey(path: string, login: WalletLogin): void {
  const content: KeyFile = { accountId: login.session.accountId, sessionId: login.session.id, expiresAt: login.session.expiresAt, privateKey: login.sessionKey.privateKey };
  writeFileSync(path, JSON.stringify(content, null, 2) + '\n', { mode: 0o600 });
}

function loadKey(path: string): KeyFile {
  if (!existsSync(path)) throw new Error(`no session key file at ${path}: run the login command first`);
  return JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
}

async function otpLogin(api: WalletApi, accountId: string, credentialId: string | undefined, otpCode: string): Promise<WalletLogin> {
  const credentials = await api.listCredentials(accountId);
  const credential = credentialId ? credentials.find((entry) => entry.id === credentialId) : credentials.find((entry) => entry.type === 'EMAIL_OTP' || entry.type === 'SMS_OTP');
  if (!credential) throw new Error(`no OTP credential on ${accountId}`);
  step(`OTP login with ${credential.type} credential ${credential.id} (${credential.nickname})`);
  step('  challenge -> otpEncryptionTargetBundle (checked against the pinned enclave key from GET /config)');
  step(`  code ${otpCode} HPKE-encrypted with a fresh TEK -> verify leg 1 -> 202 verification token`);
  step('  token stamped with the TEK -> verify leg 2 -> 200 session');
  const login = await api.loginWithOtp(credential.id, { otpCode });
  step(`session ${login.session.id}, valid until ${login.session.expiresAt}`);
  return login;
}

async function walkthrough(api: WalletApi, options: Options): Promise<Record<string, unknown>> {
  const email = options.email ?? `wallet.user.${Date.now().toString(36)}@example.com`;
  step(`enclave key pinned: ${(await api.enclavePublicKey()).slice(0, 18)}...`);
  const customer = await api.expect(
    api.request('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: `wallet-cli-${Date.now().toString(36)}`, fullName: 'Wallet Walkthrough', email } }),
    201,
    'create customer',
  );
  step(`customer ${customer.id} (${email})`);
  const wallets = await api.expect(api.request('GET', `/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=EMBEDDED_WALLET`), 200, 'find wallet');
  const accountId = wallets.data[0]?.id as string | undefined;
  if (!accountId) throw new Error('the platform has no USDB in supportedCurrencies, so customers get no embedded wallet');
  step(`embedded wallet ${accountId}`);
  const login = await otpLogin(api, accountId, undefined, options.otp ?? '000000');
  step('signed action: PATCH /internal-accounts/{id} {privateEnabled: true} -> 202 payloadToSign, stamped with the session key, retried -> 200');
  const account = await api.updatePrivacy(accountId, true, login.sessionKey);
  step(`wallet privacy: privateEnabled=${account.privateEnabled}`);
  const quote = await fundedQuote(api, customer.id, accountId);
  const executed = await executeQuote(api, quote, login);
  return { customerId: customer.id, accountId, sessionId: login.session.id, quoteId: quote.id, quoteStatus: executed.status };
}

/** Funds the wallet (sandbox), adds a USD bank account for the customer and quotes 5 USDB to it. */
async function fundedQuote(api: WalletApi, customerId: string, accountId: string): Promise<any> {
  await api.expect(api.request('POST', `/sandbox/internal-accounts/${encodeURIComponent(accountId)}/fund`, { body: { amount: 10_000_000 } }), 200, 'fund wallet');
  step('wallet funded with 10 USDB (sandbox)');
  const external = await api.expect(
    api.request('POST', '/customers/external-accounts', {
      body: {
        customerId,
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '123456789',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Wallet Walkthrough' },
        },
      },
    }),
    201,
    'create external account',
  );
  const quote = await api.expect(
    api.request('POST', '/quotes', {
      body: {
        source: { sourceType: 'ACCOUNT', accountId },
        destination: { destinationType: 'ACCOUNT', accountId: external.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000_000,
      },
    }),
    201,
    'create quote',
  );
  step(`quote ${quote.id}: ${quote.totalSendingAmount} USDB minor units -> ${quote.totalReceivingAmount} USD cents, expires ${quote.expiresAt}`);
  return quote;
}

async function executeQuote(api: WalletApi, quote: any, login: Pick<WalletLogin, 'sessionKey'>): Promise<any> {
  const payload = JSON.parse(embeddedWalletPayload(quote)) as { type: string };
  step(`signing the quote's EMBEDDED_WALLET payloadToSign (${payload.type}) with the session key`);
  const executed = await api.executeQuote(quote, login.sessionKey);
  step(`executed: ${executed.status}`);
  return executed;
}

async function main(): Promise<void> {
  const { command, options } = parseArguments(process.argv.slice(2));
  if (!command || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const api = connect(options);
  const keyFile = options['key-file'] ?? 'wallet-session.json';
  let result: unknown;
  switch (command) {
    case 'walkthrough':
      result = await walkthrough(api, options);
      break;
    case 'login': {
      const login = await otpLogin(api, required(options, 'account'), options.credential, options.otp ?? '000000');
      saveKey(keyFile, login);
      step(`session key saved to ${keyFile}`);
      result = login.session;
      break;
    }
    case 'credentials':
      result = await api.listCredentials(required(options, 'account'));
      break;
    case 'sessions':
      result = await api.listSessions(required(options, 'account'));
      break;
    case 'privacy': {
      const key = loadKey(keyFile);
      result = await api.updatePrivacy(required(options, 'account'), required(options, 'private') === 'true', walletKeyPairFromPrivateKey(key.privateKey));
      break;
    }
    case 'execute': {
      const key = loadKey(keyFile);
      const quote = await api.expect(api.request('GET', `/quotes/${encodeURIComponent(required(options, 'quote'))}`), 200, 'get quote');
      result = await executeQuote(api, quote, { sessionKey: walletKeyPairFromPrivateKey(key.privateKey) });
      break;
    }
    default:
      throw new Error(`unknown command ${command}\n${USAGE}`);
  }
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  const text = error instanceof WalletApiError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`wallet: ${text}\n`);
  process.exit(1);
});
