import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { newId } from '../../infra/ids';
import { generateCustodiedKeyPair } from '../crypto/custodied-key';
import { DelegatedKeyRecord, keyActivatedBy } from '../domain/delegated-key/delegated-key.decider';
import { DelegatedKeyScope } from '../domain/delegated-key/delegated-key.events';
import { delegatedKeyIdFor } from '../domain/delegated-key/delegated-key.ids';
import { WalletState } from '../domain/wallet/wallet.decider';
import { delegatedKeyAlreadyActive, walletUnauthorized } from '../domain/wallet-auth.errors';
import { DelegatedKeyView, delegatedKeyView } from '../queries/delegated-key.view';
import { CardFundingScopes } from '../services/card-funding-scopes';
import { createSignerPayload, grantPolicyPayload } from '../services/delegated-key-payloads';
import { SignedCallHeaders, SignedRequestChallenge, SignedRequests, normaliseRequestId, readSignedCall } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { WalletClock } from '../services/wallet-clock';
import { WalletSessions } from '../services/wallet-sessions';
import { REQUEST_LIFETIME_MS, vaultIds } from '../wallet-auth.constants';

export interface DelegatedKeyRequest {
  cardId: string;
  internalAccountId: string;
  nickname: string;
}

export type DelegatedKeyAnswer = HttpResult<DelegatedKeyView | SignedRequestChallenge>;

/** `POST /auth/delegated-keys`: 202, signed 202, signed 201 (the same body on every leg). */
export class CreateDelegatedKey extends Command<DelegatedKeyAnswer> {
  constructor(
    readonly platformId: string,
    readonly request: DelegatedKeyRequest,
    readonly rawBody: unknown,
    readonly headers: SignedCallHeaders,
  ) {
    super();
  }
}

interface Leg {
  command: CreateDelegatedKey;
  scope: DelegatedKeyScope;
  wallet: WalletState;
  now: Date;
}

type Retry = { signature: string | string[]; requestId: string };

/**
 * Three legs, each signed retry by a live session of the wallet that funds the card:
 * 1. no headers: a key pair is generated and sealed, 202 with the signer-creation payload;
 * 2. signed: the key is recorded PENDING, 202 with the policy payload (a new Request-Id);
 * 3. signed: the key becomes ACTIVE, 201 with it.
 * Which retry it is, the Request-Id says: the one a PENDING key awaits is leg 3. A funding source
 * with an ACTIVE key refuses a new one (409) until that key is revoked.
 */
@CommandHandler(CreateDelegatedKey)
export class CreateDelegatedKeyHandler implements ICommandHandler<CreateDelegatedKey, DelegatedKeyAnswer> {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly scopes: CardFundingScopes,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  async execute(command: CreateDelegatedKey): Promise<DelegatedKeyAnswer> {
    const call = readSignedCall(command.headers);
    const scope = await this.scopes.require(command.platformId, command.request.cardId, command.request.internalAccountId);
    const [wallet, keys] = await Promise.all([this.store.loadWallet(scope.accountId), this.store.loadFundingSourceKeys(scope.fundingSourceId)]);
    const leg: Leg = { command, scope, wallet, now: this.clock.now() };
    if (call.kind === 'first') {
      if (keys.activeKeyId !== null) throw delegatedKeyAlreadyActive(keys.activeKeyId);
      return this.issueSignerCreation(leg);
    }
    const requestId = normaliseRequestId(call.requestId);
    const awaited = requestId === null ? null : keyActivatedBy(keys, requestId);
    return awaited ? this.activate(leg, call, awaited) : this.createPending(leg, call);
  }

  private async issueSignerCreation({ command, scope, wallet, now }: Leg): Promise<DelegatedKeyAnswer> {
    const requestId = newId('Request', now.getTime());
    const delegatedKeyId = delegatedKeyIdFor(requestId);
    const key = generateCustodiedKeyPair();
    // Held for twice the request's life (the vault's clock is the database's): leg 2 keeps it for
    // good once the key is recorded; an abandoned first call's key lapses.
    await this.vault.seal(vaultIds.delegatedKey(delegatedKeyId), 'delegated-key', key.privateScalar, new Date(Date.now() + 2 * REQUEST_LIFETIME_MS));
    const payload = { scope, delegatedKeyId, publicKey: key.publicKey, nickname: command.request.nickname, requestId, timestampMs: now.getTime() };
    const { challenge } = await this.signed.issue({
      ...this.requestScope(scope, 'CREATE_DELEGATED_KEY'),
      credentialType: null,
      body: command.rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      boundPublicKey: key.publicKey,
      requestId,
      payloadToSign: () => createSignerPayload(payload),
      now,
    });
    return withStatus(202, challenge);
  }

  private async createPending(leg: Leg, retry: Retry): Promise<DelegatedKeyAnswer> {
    const { command, scope, wallet, now } = leg;
    const { request, signedBySessionId } = await this.redeem(leg, retry, 'CREATE_DELEGATED_KEY');
    const delegatedKeyId = delegatedKeyIdFor(request.requestId);
    const privateScalar = await this.keyMaterial(delegatedKeyId);
    const activationRequestId = newId('Request', now.getTime());
    const publicKey = request.boundPublicKey!;
    await this.store.handleFundingSourceKeys(scope.fundingSourceId, {
      type: 'CreateDelegatedKey',
      ...scope,
      delegatedKeyId,
      publicKey,
      nickname: command.request.nickname,
      requestId: request.requestId,
      activationRequestId,
      signedBySessionId,
      now: now.toISOString(),
    });
    // The key exists: its sealed private key now outlives the request (no expiry).
    await this.vault.seal(vaultIds.delegatedKey(delegatedKeyId), 'delegated-key', privateScalar);
    const payload = { scope, delegatedKeyId, publicKey, nickname: command.request.nickname, requestId: activationRequestId, timestampMs: now.getTime() };
    const { challenge } = await this.signed.issue({
      ...this.requestScope(scope, 'ACTIVATE_DELEGATED_KEY'),
      credentialType: null,
      body: command.rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      boundPublicKey: publicKey,
      requestId: activationRequestId,
      payloadToSign: () => grantPolicyPayload(payload),
      now,
    });
    return withStatus(202, challenge);
  }

  private async activate(leg: Leg, retry: Retry, key: DelegatedKeyRecord): Promise<DelegatedKeyAnswer> {
    const { request, signedBySessionId } = await this.redeem(leg, retry, 'ACTIVATE_DELEGATED_KEY');
    const result = await this.store.handleFundingSourceKeys(leg.scope.fundingSourceId, {
      type: 'ActivateDelegatedKey',
      delegatedKeyId: key.delegatedKeyId,
      requestId: request.requestId,
      signedBySessionId,
      now: leg.now.toISOString(),
    });
    return withStatus(201, delegatedKeyView(result.state.keys[key.delegatedKeyId]));
  }

  /** Any live session of the funding wallet signs each leg. */
  private redeem({ command, scope, wallet, now }: Leg, retry: Retry, action: 'CREATE_DELEGATED_KEY' | 'ACTIVATE_DELEGATED_KEY') {
    return this.signed.redeem({
      scope: this.requestScope(scope, action),
      retry,
      body: command.rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      sandbox: this.accounts.sandbox,
      authorise: async (verified) => (await this.sessions.authorise(scope.platformId, scope.accountId, verified, {}, now)).sessionId,
      now,
    });
  }

  private requestScope(scope: DelegatedKeyScope, action: 'CREATE_DELEGATED_KEY' | 'ACTIVATE_DELEGATED_KEY') {
    return { platformId: scope.platformId, accountId: scope.accountId, action, targetId: scope.fundingSourceId };
  }

  /** The private key sealed by the first call. */
  private async keyMaterial(delegatedKeyId: string): Promise<Buffer> {
    const privateScalar = await this.vault.open(vaultIds.delegatedKey(delegatedKeyId));
    if (!privateScalar) throw walletUnauthorized('The key pair of this request is no longer held; start the request again', 'REQUEST_ID');
    return privateScalar;
  }
}
