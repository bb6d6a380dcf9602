import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { externalAccountNotFound } from './external-account.errors';
import {
  AccountInfo,
  BeneficiaryVerificationStatus,
  ExternalAccountCreated,
  ExternalAccountEvent,
  ExternalAccountStatus,
  TrustAction,
} from './external-account.events';
import { AccountHolder, ownershipVerificationRequired } from './ownership-rules';
import { OutstandingOwnershipChallenge, OwnershipCommand, decideOwnership, statusChange } from './ownership.decisions';

export interface ExternalAccountRecord {
  externalAccountId: string;
  platformId: string;
  /** Null: the platform's own account. */
  customerId: string | null;
  currency: string;
  platformAccountId: string | null;
  accountInfo: AccountInfo;
  primaryIdentifier: string;
  beneficiaryVerification: { status: BeneficiaryVerificationStatus; verifiedFullName: string | null } | null;
  /** The reference's status (`status` of the state only says whether the account exists). */
  accountStatus: ExternalAccountStatus;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
  defaultUmaDepositAccount?: boolean;
  trusted: boolean;
  pendingChallenge: { challengeId: string; action: TrustAction; expiresAt: string } | null;
  /** The ownership challenge the account waits on (ownership.decisions.ts). */
  ownershipChallenge: OutstandingOwnershipChallenge | null;
  createdAt: string;
  updatedAt: string;
}

export type ExternalAccountState = { status: 'none' } | ({ status: 'active' | 'deleted' } & ExternalAccountRecord);

export type ExternalAccountCommand =
  /** The account as the handler built it and who holds it; the decider sets the status it starts with. */
  | { type: 'CreateExternalAccount'; created: Omit<ExternalAccountCreated['data'], 'accountStatus'>; holder: AccountHolder }
  | { type: 'DeleteExternalAccount'; now: string }
  | { type: 'StartTrustChange'; action: TrustAction; challengeId: string; expiresAt: string; now: string }
  | { type: 'ConfirmTrustChange'; action: TrustAction; proofAccepted: boolean; now: string }
  | {
      type: 'ResolveBeneficiaryVerification';
      status: Exclude<BeneficiaryVerificationStatus, 'PENDING'>;
      verifiedFullName: string | null;
      now: string;
    }
  | OwnershipCommand;

/**
 * PENDING_OWNERSHIP_VERIFICATION for a wallet whose ownership must be proven (ownership-rules.ts),
 * else UNDER_REVIEW while the beneficiary name check has not answered, else ACTIVE.
 */
function initialStatus(created: Omit<ExternalAccountCreated['data'], 'accountStatus'>, holder: AccountHolder): ExternalAccountStatus {
  const claim = { accountType: created.accountInfo.accountType, identifiers: created.accountInfo.identifiers, ownershipType: created.ownershipType };
  if (ownershipVerificationRequired(claim, holder)) return 'PENDING_OWNERSHIP_VERIFICATION';
  return created.beneficiaryVerification?.status === 'PENDING' ? 'UNDER_REVIEW' : 'ACTIVE';
}

/**
 * An external account (a beneficiary). Trusting one is an SCA ceremony for customers in SCA
 * regions: start (challenge issued), confirm (proof checked by the caller). A trusted account
 * cannot be deleted: 409 BENEFICIARY_TRUSTED until it is untrusted. Its status (`accountStatus`)
 * is UNDER_REVIEW while its name check is pending and ACTIVE once it answered; a wallet proving
 * its ownership moves as ownership.decisions.ts decides.
 */
export const externalAccountDecider: Decider<ExternalAccountCommand, ExternalAccountState, ExternalAccountEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateExternalAccount') {
      if (state.status !== 'none') return [];
      return [{ type: 'ExternalAccountCreated', data: { ...command.created, accountStatus: initialStatus(command.created, command.holder) } }];
    }
    if (command.type === 'ResolveBeneficiaryVerification') {
      // A late answer is a no-op for a deleted account or a check that is no longer pending.
      if (state.status !== 'active' || state.beneficiaryVerification?.status !== 'PENDING') return [];
      return [
        {
          type: 'BeneficiaryVerificationResolved',
          data: {
            externalAccountId: state.externalAccountId,
            platformId: state.platformId,
            status: command.status,
            verifiedFullName: command.verifiedFullName,
            resolvedAt: command.now,
          },
        },
        // Whatever the answer: a name that does not match warns the payer, it does not stop the account.
        ...(state.accountStatus === 'UNDER_REVIEW' ? statusChange(state, 'ACTIVE', 'BENEFICIARY_CHECK_RESOLVED', command.now) : []),
      ];
    }
    if (state.status !== 'active') throw externalAccountNotFound();
    const ref = { externalAccountId: state.externalAccountId, platformId: state.platformId };
    switch (command.type) {
      case 'IssueOwnershipChallenge':
      case 'AnswerOwnershipChallenge':
      case 'ResolveLivenessCheck':
        return decideOwnership(command, {
          ...ref,
          accountType: state.accountInfo.accountType,
          identifiers: state.accountInfo.identifiers,
          ownershipType: state.ownershipType,
          accountStatus: state.accountStatus,
          ownershipChallenge: state.ownershipChallenge,
        });

      case 'DeleteExternalAccount':
        if (state.trusted) {
          throw new DomainError('BENEFICIARY_TRUSTED', 'The external account is a trusted beneficiary; untrust it before deleting it');
        }
        return [{ type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: command.now } }];

      case 'StartTrustChange':
        if (command.action === 'TRUST' && state.trusted) throw new DomainError('CONFLICT', 'The beneficiary is already trusted', { reason: 'ALREADY_TRUSTED' });
        if (command.action === 'UNTRUST' && !state.trusted) throw new DomainError('CONFLICT', 'The beneficiary is not trusted', { reason: 'NOT_TRUSTED' });
        return [
          {
            type: 'BeneficiaryTrustChallengeIssued',
            data: { ...ref, action: command.action, challengeId: command.challengeId, factor: 'SMS_OTP', expiresAt: command.expiresAt, issuedAt: command.now },
          },
        ];

      case 'ConfirmTrustChange': {
        const challenge = state.pendingChallenge;
        if (!challenge || challenge.action !== command.action) {
          throw new DomainError('CONFLICT', `No ${command.action.toLowerCase()} ceremony is in progress; start one first`, { reason: 'NO_PENDING_CHALLENGE' });
        }
        if (Date.parse(challenge.expiresAt) <= Date.parse(command.now)) {
          throw new DomainError('CONFLICT', 'The challenge expired; start again', { reason: 'CHALLENGE_EXPIRED' });
        }
        if (!command.proofAccepted) {
          throw new DomainError('INVALID_INPUT', 'The code is not valid for this challenge', {
            errors: [{ field: 'code', constraint: {}, message: 'The code is not valid for this challenge' }],
          });
        }
        return command.action === 'TRUST'
          ? [{ type: 'BeneficiaryTrusted', data: { ...ref, challengeId: challenge.challengeId, trustedAt: command.now } }]
          : [{ type: 'BeneficiaryUntrusted', data: { ...ref, challengeId: challenge.challengeId, untrustedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'ExternalAccountCreated') {
      return {
        status: 'active',
        ...event.data,
        accountStatus: event.data.accountStatus ?? 'ACTIVE',
        trusted: false,
        pendingChallenge: null,
        ownershipChallenge: null,
        updatedAt: event.data.createdAt,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'ExternalAccountDeleted':
        return { ...state, status: 'deleted', updatedAt: event.data.deletedAt };
      case 'BeneficiaryTrustChallengeIssued':
        return {
          ...state,
          pendingChallenge: { challengeId: event.data.challengeId, action: event.data.action, expiresAt: event.data.expiresAt },
        };
      case 'BeneficiaryTrusted':
        return { ...state, trusted: true, pendingChallenge: null, updatedAt: event.data.trustedAt };
      case 'BeneficiaryUntrusted':
        return { ...state, trusted: false, pendingChallenge: null, updatedAt: event.data.untrustedAt };
      case 'BeneficiaryVerificationResolved':
        return {
          ...state,
          beneficiaryVerification: { status: event.data.status, verifiedFullName: event.data.verifiedFullName },
          updatedAt: event.data.resolvedAt,
        };
      case 'ExternalAccountStatusChanged':
        return { ...state, accountStatus: event.data.status, updatedAt: event.data.changedAt };
      case 'OwnershipChallengeIssued': {
        const { method, nonce, messageToSign, expiresAt } = event.data;
        return { ...state, ownershipChallenge: { method, nonce, ...(messageToSign !== undefined ? { messageToSign } : {}), expiresAt } };
      }
      case 'OwnershipVerified':
      case 'OwnershipVerificationFailed':
        // The status change decided with it moves `updatedAt`.
        return { ...state, ownershipChallenge: null };
    }
  },
};
