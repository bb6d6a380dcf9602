import { OwnershipChallengeIssued } from '../domain/external-account/external-account.events';

/**
 * A WALLET_SIGNATURE challenge as `POST .../{externalAccountId}/challenge` answers it: the exact
 * message for the wallet to sign.
 * @example
 * {
 *   "method": "WALLET_SIGNATURE",
 *   "messageToSign": "Payments service: wallet ownership verification\nI control the wallet 0x52908400098527886E0F7030069857D2E4169EE7 and add it as external account ExternalAccount:019a2a1c-0f3b-7e44-9a61-d27c5b80e3f9.\nNonce: 019a2a1d-41c7-7d55-8e0c-3b6f2a9d1e07\nExpires: 2025-10-28T09:46:52.406Z",
 *   "expiresAt": "2025-10-28T09:46:52.406Z"
 * }
 */
export interface WalletSignatureChallengeView {
  method: 'WALLET_SIGNATURE';
  messageToSign: string;
  expiresAt: string;
}

/**
 * A LIVENESS challenge: the hosted biometric flow to send the wallet's owner to. The sandbox's
 * provider offers no SDK, so no `token`.
 * @example
 * {
 *   "method": "LIVENESS",
 *   "verificationLink": "https://sandbox.liveness.invalid/sessions/019a2a1d-41c7-7d55-8e0c-3b6f2a9d1e07",
 *   "expiresAt": "2025-10-28T10:31:52.406Z"
 * }
 */
export interface LivenessChallengeView {
  method: 'LIVENESS';
  verificationLink: string;
  token?: string;
  expiresAt: string;
}

/** The reference's OwnershipChallenge. */
export type OwnershipChallengeView = WalletSignatureChallengeView | LivenessChallengeView;

export function ownershipChallengeView(issued: OwnershipChallengeIssued['data']): OwnershipChallengeView {
  if (issued.method === 'WALLET_SIGNATURE') return { method: 'WALLET_SIGNATURE', messageToSign: issued.messageToSign!, expiresAt: issued.expiresAt };
  return { method: 'LIVENESS', verificationLink: issued.verificationLink!, expiresAt: issued.expiresAt };
}
