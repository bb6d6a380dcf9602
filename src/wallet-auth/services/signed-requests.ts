import { Injectable } from '@nestjs/common';
import { canonicalJsonSha256Hex } from '../../infra/crypto/canonical-json';
import { newId, parseId } from '../../infra/ids';
import { WalletActivityType, buildPayloadToSign } from '../../shared/wallet-payloads';
import { VerifiedWalletSignature, parseWalletSignatureHeader, verifyParsedWalletSignature } from '../crypto/wallet-signature';
import { PendingRequest } from '../domain/request/request.decider';
import { WalletRequestAction } from '../domain/request/request.events';
import { REQUEST_LIFETIME_MS } from '../wallet-auth.constants';
import { credentialSetChangedError, walletSignatureError, walletUnauthorized } from '../domain/wallet-auth.errors';
import { WalletAuthStore } from './wallet-auth.store';

/** The two headers of a signed retry, as received. */
export interface SignedCallHeaders {
  signature: string | string[] | undefined;
  requestId: string | string[] | undefined;
}

export type SignedCall = { kind: 'first' } | { kind: 'retry'; signature: string | string[]; requestId: string };

/**
 * Which leg a request is. Neither header: the first call. Both: the signed retry. One without
 * the other is refused: a Request-Id alone is WALLET_SIGNATURE_MISSING, a signature alone is
 * REQUEST_ID_MISSING (SPEC.md "Authentication" 3 and 6).
 */
export function readSignedCall(headers: SignedCallHeaders): SignedCall {
  const hasSignature = headers.signature !== undefined && !(typeof headers.signature === 'string' && headers.signature.trim() === '');
  const requestId = Array.isArray(headers.requestId) ? headers.requestId[0] : headers.requestId;
  const hasRequestId = requestId !== undefined && requestId.trim() !== '';
  if (!hasSignature && !hasRequestId) return { kind: 'first' };
  if (!hasSignature) throw walletSignatureError('WALLET_SIGNATURE_MISSING', 'Service-Wallet-Signature header is missing on the signed retry');
  if (!hasRequestId) throw walletSignatureError('REQUEST_ID_MISSING', 'Request-Id header is missing on the signed retry');
  if (Array.isArray(headers.requestId) && headers.requestId.length > 1) throw walletUnauthorized('Request-Id was sent more than once', 'REQUEST_ID');
  return { kind: 'retry', signature: headers.signature!, requestId: requestId!.trim() };
}

/** What a request is about; a retry must match every part (and the body hash). */
export interface RequestScope {
  platformId: string;
  accountId: string;
  action: WalletRequestAction;
  targetId: string;
}

export interface IssueInput extends RequestScope {
  credentialType: string | null;
  /** The first call's body (parsed JSON); its canonical hash binds the retry to it. */
  body: unknown;
  credentialSetVersion: number;
  /** Turnkey-style activity and parameters for the payloadToSign (requestId is added). */
  activity?: { type: WalletActivityType; parameters: Record<string, unknown> };
  /** A payloadToSign built by the caller instead (the OTP verification token). */
  payloadToSign?: (requestId: string, expiresAt: Date) => string;
  boundPublicKey?: string | null;
  webAuthnChallenge?: (requestId: string, now: Date) => { challenge: string; payload: string };
  /** A Request id chosen beforehand (when another stream must name it first). */
  requestId?: string;
  now: Date;
}

/** The 202 of a two-step signed action (DECISIONS.md section 4). */
export interface SignedRequestChallenge {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  type?: string;
}

export interface RedeemInput {
  scope: RequestScope;
  retry: { signature: string | string[]; requestId: string };
  body: unknown;
  /** The wallet's credential-set version now (a change since the 202 is 409). */
  credentialSetVersion: number;
  sandbox: boolean;
  /** Decides whether the verified key may sign this request; throws the refusal. Returns the signing session id. */
  authorise(verified: VerifiedWalletSignature, request: PendingRequest): Promise<string | null>;
  now: Date;
}

/**
 * Two-step signed actions (DECISIONS.md section 4): the first call stores a pending request with
 * its exact payloadToSign and a hash of the body, the retry proves a wallet key signed that text.
 * A Request-Id is single use and lives 5 minutes; every failure has its own code.
 */
@Injectable()
export class SignedRequests {
  constructor(private readonly store: WalletAuthStore) {}

  async issue(input: IssueInput): Promise<{ request: PendingRequest; challenge: SignedRequestChallenge; webAuthnChallenge: string | null }> {
    const requestId = input.requestId ?? newId('Request', input.now.getTime());
    const expiresAt = new Date(input.now.getTime() + REQUEST_LIFETIME_MS);
    let payloadToSign: string;
    let webAuthnChallenge: string | null = null;
    if (input.payloadToSign) {
      payloadToSign = input.payloadToSign(requestId, expiresAt);
    } else if (input.webAuthnChallenge) {
      const bound = input.webAuthnChallenge(requestId, input.now);
      payloadToSign = bound.payload;
      webAuthnChallenge = bound.challenge;
    } else if (input.activity) {
      payloadToSign = buildPayloadToSign({
        organizationId: input.accountId,
        type: input.activity.type,
        parameters: { ...input.activity.parameters, requestId },
        timestampMs: input.now.getTime(),
      });
    } else {
      throw new Error('a signed request needs a payloadToSign');
    }
    const request: PendingRequest = {
      requestId,
      platformId: input.platformId,
      accountId: input.accountId,
      action: input.action,
      targetId: input.targetId,
      credentialType: input.credentialType,
      payloadToSign,
      bodyHash: bodyHash(input.body),
      credentialSetVersion: input.credentialSetVersion,
      boundPublicKey: input.boundPublicKey ?? null,
      webAuthnChallenge,
      issuedAt: input.now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    await this.store.handleRequest(requestId, { type: 'IssueWalletRequest', request });
    const challenge: SignedRequestChallenge = { payloadToSign, requestId, expiresAt: request.expiresAt };
    if (input.credentialType !== null) challenge.type = input.credentialType;
    return { request, challenge, webAuthnChallenge };
  }

  /**
   * The pending request a Request-Id names, if it was issued for exactly this operation and is
   * still usable. Unknown ids, other platforms' and other operations' ids are all "not pending".
   */
  async pending(requestIdText: string, scope: RequestScope, now: Date): Promise<PendingRequest> {
    const requestId = normaliseRequestId(requestIdText);
    const state = requestId ? await this.store.loadRequest(requestId) : { status: 'none' as const };
    if (state.status === 'none') throw walletUnauthorized('Request-Id does not name a pending request', 'REQUEST_ID');
    const request = state.request;
    const sameScope =
      request.platformId === scope.platformId && request.accountId === scope.accountId && request.action === scope.action && request.targetId === scope.targetId;
    if (!sameScope) throw walletUnauthorized('Request-Id does not name a pending request for this operation', 'REQUEST_ID');
    if (state.status === 'completed') throw walletUnauthorized('Request-Id was already used; request ids are single use', 'REQUEST_ID');
    if (Date.parse(request.expiresAt) <= now.getTime()) throw walletUnauthorized('Request-Id has expired; start the request again', 'REQUEST_ID');
    return request;
  }

  /**
   * The signed retry, checked in this order: the request (pending, same operation), the header
   * (MALFORMED), the body (BODY_MISMATCH), the signature over the stored payload (INVALID), the
   * credential set (409), whether the key may sign (the caller's rule), then the request is used up.
   */
  async redeem(input: RedeemInput): Promise<{ request: PendingRequest; signedBySessionId: string | null }> {
    const request = await this.pending(input.retry.requestId, input.scope, input.now);
    const parsed = parseWalletSignatureHeader(input.retry.signature, { sandbox: input.sandbox });
    if (!parsed.ok) throw walletSignatureError(parsed.code, parsed.reason);
    if (bodyHash(input.body) !== request.bodyHash) {
      throw walletSignatureError('WALLET_SIGNATURE_BODY_MISMATCH', 'The signed retry must repeat the body of the first call exactly');
    }
    const verified = verifyParsedWalletSignature(parsed.value, request.payloadToSign);
    if (!verified.ok) throw walletSignatureError(verified.code, verified.reason);
    if (input.credentialSetVersion !== request.credentialSetVersion) throw credentialSetChangedError();
    const signedBySessionId = await input.authorise(verified, request);
    await this.complete(request.requestId, signedBySessionId, input.now);
    return { request, signedBySessionId };
  }

  /** Uses the request up (single use): a concurrent second completion is refused. */
  async complete(requestId: string, signedBySessionId: string | null, now: Date): Promise<void> {
    await this.store.handleRequest(requestId, { type: 'CompleteWalletRequest', signedBySessionId, now: now.toISOString() });
  }
}

/** The canonical hash that binds a retry to its first call (key order and spacing do not matter). */
export function bodyHash(body: unknown): string {
  return canonicalJsonSha256Hex(body === undefined || body === null ? {} : body);
}

/** Accepts `Request:<uuid>` as issued, and the bare uuid some clients send. */
export function normaliseRequestId(text: string): string | null {
  if (parseId('Request', text)) return text;
  if (parseId('Request', `Request:${text}`)) return `Request:${text}`;
  return null;
}
