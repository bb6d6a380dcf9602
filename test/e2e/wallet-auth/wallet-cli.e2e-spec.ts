import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { accountQuoteBody, quoteWithStatus } from '../../support/quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';

const run = promisify(execFile);
/** Five CLI processes each compile their TypeScript at start: on a loaded machine that takes a while. */
const CLI_TEST_TIMEOUT_MS = 120_000;

/** `npm run wallet -- ...` (src/wallet-auth/client/cli.ts) against a running app, as its own OS process. */
describe('wallet CLI', () => {
  let testApp: TestApp;
  let workDir: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    workDir = mkdtempSync(join(tmpdir(), 'wallet-cli-'));
  });

  afterAll(async () => {
    await testApp?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<{ stdout: string; result: any }> {
    const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/wallet-auth/client/cli.ts', ...args], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        WALLET_API_URL: testApp.baseUrl,
        PLATFORM_CLIENT_ID: testApp.platform.clientId,
        PLATFORM_CLIENT_SECRET: testApp.platform.clientSecret,
      },
      timeout: 60_000,
    });
    const line = stdout.split('\n').find((entry) => entry.startsWith('RESULT '));
    return { stdout, result: line ? JSON.parse(line.slice('RESULT '.length)) : undefined };
  }

  it('walks a new user through wallet creation, email OTP login, a signed action and a signed execute, then signs from a key file', async () => {
    const walkthrough = await cli('walkthrough', '--email', 'cli.user@example.com');
    expect(walkthrough.stdout).toContain('OTP login with EMAIL_OTP credential');
    expect(walkthrough.stdout).toContain('wallet privacy: privateEnabled=true');
    expect(walkthrough.stdout).toContain("signing the quote's EMBEDDED_WALLET payloadToSign (ACTIVITY_TYPE_EXECUTE_QUOTE)");
    const { accountId, sessionId, customerId, quoteId, quoteStatus } = walkthrough.result;
    expect(quoteId).toMatch(/^Quote:/);
    expect(quoteStatus).toBe('PROCESSING');
    await quoteWithStatus(testApp.platform.api, quoteId, 'COMPLETED');
    expect(accountId).toMatch(/^InternalAccount:/);
    expect(sessionId).toMatch(/^Session:/);

    const keyFile = join(workDir, 'session.json');
    const login = await cli('login', '--account', accountId, '--key-file', keyFile);
    expect(login.result).toMatchObject({ accountId, type: 'EMAIL_OTP', nickname: 'cli.user@example.com' });
    const saved = JSON.parse(readFileSync(keyFile, 'utf8'));
    expect(saved).toEqual({ accountId, sessionId: login.result.id, expiresAt: login.result.expiresAt, privateKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(statSync(keyFile).mode & 0o077).toBe(0);

    const privacy = await cli('privacy', '--account', accountId, '--private', 'false', '--key-file', keyFile);
    expect(privacy.result).toMatchObject({ id: accountId, privateEnabled: false });
    const sessions = await cli('sessions', '--account', accountId);
    expect(sessions.result.map((session: { id: string }) => session.id)).toEqual([sessionId, login.result.id]);

    const external = await createUsdExternalAccount(testApp.platform.api, customerId, '789');
    const quote = (await testApp.platform.api.post('/quotes').send(accountQuoteBody(accountId, external.id, 1_000_000)).expect(201)).body;
    const executed = await cli('execute', '--quote', quote.id, '--key-file', keyFile);
    expect(executed.result).toMatchObject({ id: quote.id, status: 'PROCESSING' });
  }, CLI_TEST_TIMEOUT_MS);

  it('fails with a message and exit code 1 on a bad request', async () => {
    // An unknown account lists nothing (the reference's answer); a malformed id is a bad request.
    await expect(cli('credentials', '--account', 'InternalAccount:not-a-uuid')).rejects.toMatchObject({
      code: 1,
      stderr: 'wallet: list credentials: HTTP 400 INVALID_INPUT The request has invalid fields\n',
    });
  });
});
