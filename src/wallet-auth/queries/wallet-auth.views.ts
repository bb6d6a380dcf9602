import { CredentialType } from '../domain/wallet/wallet.events';

/** An auth credential exactly as `GET /auth/credentials` lists it (SPEC.md "Auth credential"). */
export interface CredentialView {
  id: string;
  accountId: string;
  type: CredentialType;
  /** The WebAuthn credential id (base64url), for PASSKEY credentials only. */
  credentialId?: string;
  nickname: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A session exactly as `GET /auth/sessions` lists it (the reference's AuthSession: the fields of
 * its credential, with the session's own `id`, and `expiresAt`).
 */
export interface SessionView {
  id: string;
  accountId: string;
  type: CredentialType;
  /** The WebAuthn credential id (base64url) of the session's passkey, for PASSKEY sessions only. */
  credentialId?: string;
  nickname: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

export function credentialView(input: {
  credentialId: string;
  accountId: string;
  credentialType: CredentialType;
  webAuthnCredentialId: string | null;
  nickname: string;
  registeredAt: string;
}): CredentialView {
  const view: CredentialView = { id: input.credentialId, accountId: input.accountId, type: input.credentialType, nickname: input.nickname, createdAt: input.registeredAt, updatedAt: input.registeredAt };
  if (input.webAuthnCredentialId === null) return view;
  return { id: view.id, accountId: view.accountId, type: view.type, credentialId: input.webAuthnCredentialId, nickname: view.nickname, createdAt: view.createdAt, updatedAt: view.updatedAt };
}

export function sessionView(input: {
  sessionId: string;
  accountId: string;
  credentialType: CredentialType;
  webAuthnCredentialId?: string | null;
  nickname: string;
  createdAt: string;
  expiresAt: string;
}): SessionView {
  // Keys in the reference's order (AuthMethod's, then expiresAt), credentialId only for passkeys.
  return {
    id: input.sessionId,
    accountId: input.accountId,
    type: input.credentialType,
    ...(input.webAuthnCredentialId ? { credentialId: input.webAuthnCredentialId } : {}),
    nickname: input.nickname,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
    expiresAt: input.expiresAt,
  };
}
