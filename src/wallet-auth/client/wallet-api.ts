import { openCredentialBundle, openSessionSigningKey } from './bundles';
import { WalletKeyPair, generateWalletKeyPair } from './keys';
import { encryptOtpCode } from './otp';
import { stampPayload } from './stamp';

/** Something that answers a passkey login challenge (SoftwarePasskey, or a browser bridge). */
export interface PasskeyAsserter {
  assert(challengeHex: string): unknown;
}

export interface WalletApiOptions {
  /** The versioned base URL, e.g. http://localhost:8080/2025-10-13. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A session as a login answers it, with the key that signs for it. */
export interface WalletLogin {
  session: { id: string; accountId: string; type: string; credentialId?: string; nickname: string; createdAt: string; updatedAt: string; expiresAt: string };
  sessionKey: WalletKeyPair;
}

export class WalletApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
    what: string,
  ) {
    super(`${what}: HTTP ${status} ${body?.code ?? ''} ${body?.message ?? JSON.stringify(body)}`.trim());
    this.name = 'WalletApiError';
  }
}

/**
 * A platform-side client of the embedded-wallet endpoints: every login flow end to end and the
 * two-step signed actions (202 -> stamp payloadToSign -> retry with Service-Wallet-Signature and
 * Request-Id). The crypto is this toolkit's; the interop tests prove it matches the real
 * @turnkey client libraries byte for byte. Keys never leave the client.
 */
export class WalletApi {
  private enclaveKey: string | null = null;

  constructor(private readonly options: WalletApiOptions) {}

  async request(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {
      Authorization: `Basic ${Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64')}`,
      ...init.headers,
    };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.options.baseUrl}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** The enclave key wallet clients pin (GET /config walletEnclavePublicKey). */
  async enclavePublicKey(): Promise<string> {
    this.enclaveKey ??= (await this.expect(this.request('GET', '/config'), 200, 'GET /config')).walletEnclavePublicKey as string;
    return this.enclaveKey;
  }

  async listCredentials(accountId: string): Promise<any[]> {
    return (await this.expect(this.request('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`), 200, 'list credentials')).data;
  }

  async listSessions(accountId: string): Promise<any[]> {
    return (await this.expect(this.request('GET', `/auth/sessions?accountId=${encodeURIComponent(accountId)}`), 200, 'list sessions')).data;
  }

  /**
   * A two-step signed action: the first call must answer 202; its exact payloadToSign is stamped
   * with `signer` and the same body is sent again with both headers. Answers the retry.
   */
  async signed(method: string, path: string, body: unknown, signer: WalletKeyPair): Promise<ApiResponse> {
    const first = await this.request(method, path, { body });
    if (first.status !== 202) throw new WalletApiError(first.status, first.body, `${method} ${path} (first call)`);
    return this.request(method, path, {
      body,
      headers: { 'Service-Wallet-Signature': stampPayload(first.body.payloadToSign, signer), 'Request-Id': first.body.requestId },
    });
  }

  /** EMAIL_OTP / SMS_OTP login: challenge, encrypt the code to the target, leg 1, TEK-stamped leg 2. */
  async loginWithOtp(credentialId: string, options: { otpCode?: string } = {}): Promise<WalletLogin> {
    const path = `/auth/credentials/${encodeURIComponent(credentialId)}`;
    const challenged = await this.expect(this.request('POST', `${path}/challenge`, { body: {} }), 200, 'OTP challenge');
    const tek = generateWalletKeyPair();
    const encryptedOtpBundle = await encryptOtpCode({
      otpCode: options.otpCode ?? '000000',
      otpEncryptionTargetBundle: challenged.otpEncryptionTargetBundle,
      tekPublicKey: tek.publicKey,
      enclavePublicKey: await this.enclavePublicKey(),
    });
    const body = { type: challenged.type, encryptedOtpBundle };
    const first = await this.expect(this.request('POST', `${path}/verify`, { body }), 202, 'OTP verify (leg 1)');
    const headers = { 'Service-Wallet-Signature': stampPayload(first.payloadToSign, tek), 'Request-Id': first.requestId };
    const session = await this.expect(this.request('POST', `${path}/verify`, { body, headers }), 200, 'OTP verify (leg 2)');
    return { session, sessionKey: tek };
  }

  /**
   * PASSKEY login. By default the client keeps its own session key (compressed clientPublicKey);
   * `legacy: true` sends the uncompressed key and opens the returned encryptedSessionSigningKey.
   */
  async loginWithPasskey(credentialId: string, passkey: PasskeyAsserter, options: { legacy?: boolean } = {}): Promise<WalletLogin> {
    const path = `/auth/credentials/${encodeURIComponent(credentialId)}`;
    const clientKey = generateWalletKeyPair();
    const clientPublicKey = options.legacy ? clientKey.publicKeyUncompressed : clientKey.publicKey;
    const challenged = await this.expect(this.request('POST', `${path}/challenge`, { body: { clientPublicKey } }), 200, 'passkey challenge');
    const assertion = passkey.assert(challenged.challenge);
    const session = await this.expect(
      this.request('POST', `${path}/verify`, { body: { type: 'PASSKEY', assertion }, headers: { 'Request-Id': challenged.requestId } }),
      200,
      'passkey verify',
    );
    return this.withSessionKey(session, clientKey);
  }

  /** OAUTH login: `oidcTokenFor` must return a fresh token whose nonce is sha256(clientPublicKey). */
  async loginWithOauth(credentialId: string, oidcTokenFor: (clientPublicKey: string) => string, options: { legacy?: boolean } = {}): Promise<WalletLogin> {
    const clientKey = generateWalletKeyPair();
    const clientPublicKey = options.legacy ? clientKey.publicKeyUncompressed : clientKey.publicKey;
    const session = await this.expect(
      this.request('POST', `/auth/credentials/${encodeURIComponent(credentialId)}/verify`, {
        body: { type: 'OAUTH', oidcToken: oidcTokenFor(clientPublicKey), clientPublicKey },
      }),
      200,
      'OAuth verify',
    );
    return this.withSessionKey(session, clientKey);
  }

  /** Registers a credential: directly on a wallet without one, else signed by `signer`. */
  async addCredential(body: Record<string, unknown>, signer?: WalletKeyPair): Promise<any> {
    const first = await this.request('POST', '/auth/credentials', { body });
    if (first.status === 201) return first.body;
    if (first.status !== 202 || !signer) throw new WalletApiError(first.status, first.body, 'add credential');
    const headers = { 'Service-Wallet-Signature': stampPayload(first.body.payloadToSign, signer), 'Request-Id': first.body.requestId };
    return this.expect(this.request('POST', '/auth/credentials', { body, headers }), 201, 'add credential (signed retry)');
  }

  async removeCredential(credentialId: string, signer: WalletKeyPair): Promise<void> {
    await this.expect(this.signed('DELETE', `/auth/credentials/${encodeURIComponent(credentialId)}`, undefined, signer), 204, 'remove credential');
  }

  async revokeSession(sessionId: string, signer: WalletKeyPair): Promise<void> {
    await this.expect(this.signed('DELETE', `/auth/sessions/${encodeURIComponent(sessionId)}`, undefined, signer), 204, 'revoke session');
  }

  /** A new session signed by the current one; the new key is client-held unless `legacy`. */
  async refreshSession(sessionId: string, current: WalletKeyPair, options: { legacy?: boolean } = {}): Promise<WalletLogin> {
    const clientKey = generateWalletKeyPair();
    const clientPublicKey = options.legacy ? clientKey.publicKeyUncompressed : clientKey.publicKey;
    const session = await this.expect(this.signed('POST', `/auth/sessions/${encodeURIComponent(sessionId)}/refresh`, { clientPublicKey }, current), 201, 'refresh session');
    return this.withSessionKey(session, clientKey);
  }

  /** Exports the wallet secret: sealed to a fresh uncompressed key and opened here (hex). */
  async exportWallet(accountId: string, signer: WalletKeyPair): Promise<{ walletSecretHex: string; encryptedWalletCredentials: string }> {
    const exportKey = generateWalletKeyPair();
    const answer = await this.expect(
      this.signed('POST', `/internal-accounts/${encodeURIComponent(accountId)}/export`, { clientPublicKey: exportKey.publicKeyUncompressed }, signer),
      200,
      'export wallet',
    );
    return { walletSecretHex: await openCredentialBundle(answer.encryptedWalletCredentials, exportKey.privateKey), encryptedWalletCredentials: answer.encryptedWalletCredentials };
  }

  async updatePrivacy(accountId: string, privateEnabled: boolean, signer: WalletKeyPair): Promise<any> {
    return this.expect(this.signed('PATCH', `/internal-accounts/${encodeURIComponent(accountId)}`, { privateEnabled }, signer), 200, 'update privacy');
  }

  /**
   * Delegates a card's payments from the wallet that funds it to a key the service holds: three
   * calls with the same body, the second and third stamped with a live session key. Answers the
   * ACTIVE key (201).
   */
  async createDelegatedKey(body: { cardId: string; internalAccountId: string; nickname: string }, signer: WalletKeyPair): Promise<any> {
    let answer = await this.expect(this.request('POST', '/auth/delegated-keys', { body }), 202, 'create delegated key');
    for (const [status, leg] of [[202, 'signer leg'], [201, 'policy leg']] as const) {
      const headers = { 'Service-Wallet-Signature': stampPayload(answer.payloadToSign, signer), 'Request-Id': answer.requestId };
      answer = await this.expect(this.request('POST', '/auth/delegated-keys', { body, headers }), status, `create delegated key (${leg})`);
    }
    return answer;
  }

  async revokeDelegatedKey(delegatedKeyId: string): Promise<void> {
    await this.expect(this.request('DELETE', `/auth/delegated-keys/${encodeURIComponent(delegatedKeyId)}`), 204, 'revoke delegated key');
  }

  /**
   * Executes a quote whose source is this wallet: stamps the quote's EMBEDDED_WALLET
   * `payloadToSign` (from its paymentInstructions) with a live session key. One call.
   */
  async executeQuote(quote: { id: string; paymentInstructions?: Array<{ accountOrWalletInfo: Record<string, unknown> }> }, signer: WalletKeyPair, idempotencyKey?: string): Promise<any> {
    const payloadToSign = embeddedWalletPayload(quote);
    const headers: Record<string, string> = { 'Service-Wallet-Signature': stampPayload(payloadToSign, signer) };
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    return this.expect(this.request('POST', `/quotes/${encodeURIComponent(quote.id)}/execute`, { headers }), 200, 'execute quote');
  }

  async expect(pending: Promise<ApiResponse> | ApiResponse, status: number, what: string): Promise<any> {
    const response = await pending;
    if (response.status !== status) throw new WalletApiError(response.status, response.body, what);
    return response.body;
  }

  private async withSessionKey(session: any, clientKey: WalletKeyPair): Promise<WalletLogin> {
    const { encryptedSessionSigningKey, ...view } = session;
    const sessionKey = encryptedSessionSigningKey ? await openSessionSigningKey(encryptedSessionSigningKey, clientKey.privateKey) : clientKey;
    return { session: view, sessionKey };
  }
}

/** The payloadToSign of a quote's EMBEDDED_WALLET payment instruction. */
export function embeddedWalletPayload(quote: { paymentInstructions?: Array<{ accountOrWalletInfo: Record<string, unknown> }> }): string {
  const info = quote.paymentInstructions?.find((entry) => entry.accountOrWalletInfo?.accountType === 'EMBEDDED_WALLET')?.accountOrWalletInfo;
  if (!info || typeof info.payloadToSign !== 'string') throw new Error('the quote has no EMBEDDED_WALLET payloadToSign');
  return info.payloadToSign;
}
