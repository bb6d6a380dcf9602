import { DomainError } from '../../../infra/domain/domain-error';
import {
  ExternalAccountEvent,
  ExternalAccountStatus,
  ExternalAccountStatusReason,
  OwnershipFailureReason,
  OwnershipVerificationMethod,
  SignatureScheme,
} from './external-account.events';
import { CHALLENGE_LIFETIME_MS, WalletClaim, challengeRefusal, ownershipMessage } from './ownership-rules';

/** The challenge an account waits on (write side only: no view shows it). */
export interface OutstandingOwnershipChallenge {
  method: OwnershipVerificationMethod;
  nonce: string;
  messageToSign?: string;
  expiresAt: string;
}

/** What the ownership decisions read of an account's state. */
export interface OwnershipSubject extends WalletClaim {
  externalAccountId: string;
  platformId: string;
  accountStatus: ExternalAccountStatus;
  ownershipChallenge: OutstandingOwnershipChallenge | null;
}

export type OwnershipCommand =
  /** Starts (or restarts) a challenge; a LIVENESS one comes with the provider's hosted link. */
  | { type: 'IssueOwnershipChallenge'; method: OwnershipVerificationMethod; nonce: string; verificationLink?: string; now: string }
  /** A signature for the outstanding WALLET_SIGNATURE challenge, checked by the handler against its message. */
  | { type: 'AnswerOwnershipChallenge'; signature: string; signatureScheme?: SignatureScheme; signatureValid: boolean; now: string }
  /** The liveness provider's outcome for the challenge with `nonce`. */
  | { type: 'ResolveLivenessCheck'; nonce: string; passed: boolean; now: string };

/** The move to `status` (nothing when the account has it already), for any decision to append. */
export function statusChange(
  state: { externalAccountId: string; platformId: string; accountStatus: ExternalAccountStatus },
  status: ExternalAccountStatus,
  reason: ExternalAccountStatusReason,
  now: string,
): ExternalAccountEvent[] {
  if (state.accountStatus === status) return [];
  return [
    {
      type: 'ExternalAccountStatusChanged',
      data: { externalAccountId: state.externalAccountId, platformId: state.platformId, previousStatus: state.accountStatus, status, reason, changedAt: now },
    },
  ];
}

/**
 * Ownership verification of a FIRST_PARTY self-custody wallet. Issuing a challenge abandons the
 * one before (an UNVERIFIED account is PENDING_OWNERSHIP_VERIFICATION again); a valid answer in
 * time makes the account ACTIVE; a wrong or late one uses the challenge up and makes it UNVERIFIED
 * (the caller answers 400). A liveness outcome for a challenge no longer outstanding changes nothing.
 */
export function decideOwnership(command: OwnershipCommand, state: OwnershipSubject): ExternalAccountEvent[] {
  const ref = { externalAccountId: state.externalAccountId, platformId: state.platformId };
  switch (command.type) {
    case 'IssueOwnershipChallenge': {
      const refusal = challengeRefusal(state);
      if (refusal) throw refusal;
      const expiresAt = new Date(Date.parse(command.now) + CHALLENGE_LIFETIME_MS[command.method]).toISOString();
      const material =
        command.method === 'WALLET_SIGNATURE'
          ? { messageToSign: ownershipMessage({ externalAccountId: state.externalAccountId, address: state.identifiers.address, nonce: command.nonce, expiresAt }) }
          : { verificationLink: command.verificationLink };
      return [
        { type: 'OwnershipChallengeIssued', data: { ...ref, method: command.method, nonce: command.nonce, ...material, expiresAt, issuedAt: command.now } },
        ...statusChange(state, 'PENDING_OWNERSHIP_VERIFICATION', 'OWNERSHIP_CHALLENGE_ISSUED', command.now),
      ];
    }
    case 'AnswerOwnershipChallenge': {
      const challenge = state.ownershipChallenge;
      if (challenge?.method !== 'WALLET_SIGNATURE') {
        throw new DomainError('CONFLICT', 'No WALLET_SIGNATURE challenge is outstanding for this account; start one first', { reason: 'NO_OUTSTANDING_CHALLENGE' });
      }
      const evidence = { method: challenge.method, nonce: challenge.nonce, signature: command.signature, ...(command.signatureScheme ? { signatureScheme: command.signatureScheme } : {}) };
      if (Date.parse(challenge.expiresAt) <= Date.parse(command.now)) return failed(state, evidence, 'CHALLENGE_EXPIRED', command.now);
      if (!command.signatureValid) return failed(state, evidence, 'INVALID_SIGNATURE', command.now);
      return verified(state, evidence, command.now);
    }
    case 'ResolveLivenessCheck': {
      const challenge = state.ownershipChallenge;
      if (challenge?.method !== 'LIVENESS' || challenge.nonce !== command.nonce || Date.parse(challenge.expiresAt) <= Date.parse(command.now)) return [];
      const evidence = { method: challenge.method, nonce: challenge.nonce };
      return command.passed ? verified(state, evidence, command.now) : failed(state, evidence, 'LIVENESS_FAILED', command.now);
    }
  }
}

type Evidence = { method: OwnershipVerificationMethod; nonce: string; signature?: string; signatureScheme?: SignatureScheme };

function verified(state: OwnershipSubject, evidence: Evidence, now: string): ExternalAccountEvent[] {
  return [
    { type: 'OwnershipVerified', data: { externalAccountId: state.externalAccountId, platformId: state.platformId, ...evidence, verifiedAt: now } },
    ...statusChange(state, 'ACTIVE', 'OWNERSHIP_VERIFIED', now),
  ];
}

function failed(state: OwnershipSubject, evidence: Evidence, reason: OwnershipFailureReason, now: string): ExternalAccountEvent[] {
  return [
    { type: 'OwnershipVerificationFailed', data: { externalAccountId: state.externalAccountId, platformId: state.platformId, ...evidence, reason, failedAt: now } },
    ...statusChange(state, 'UNVERIFIED', 'OWNERSHIP_VERIFICATION_FAILED', now),
  ];
}
