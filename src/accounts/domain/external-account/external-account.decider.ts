import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { externalAccountNotFound } from './external-account.errors';
import { AccountInfo, BeneficiaryVerificationStatus, ExternalAccountEvent, TrustAction } from './external-account.events';

export interface ExternalAccountRecord {
  externalAccountId: string;
  platformId: string;
  customerId: string;
  currency: string;
  platformAccountId: string | null;
  accountInfo: AccountInfo;
  primaryIdentifier: string;
  beneficiaryVerification: { status: BeneficiaryVerificationStatus; verifiedFullName: string | null } | null;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
  defaultUmaDepositAccount?: boolean;
  trusted: boolean;
  pendingChallenge: { challengeId: string; action: TrustAction; expiresAt: string } | null;
  createdAt: string;
  updatedAt: string;
}

export type ExternalAccountState = { status: 'none' } | ({ status: 'active' | 'deleted' } & ExternalAccountRecord);

export type ExternalAccountCommand =
  | { type: 'CreateExternalAccount'; created: Extract<ExternalAccountEvent, { type: 'ExternalAccountCreated' }>['data'] }
  | { type: 'DeleteExternalAccount'; now: string }
  | { type: 'StartTrustChange'; action: TrustAction; challengeId: string; expiresAt: string; now: string }
  | { type: 'ConfirmTrustChange'; action: TrustAction; proofAccepted: boolean; now: string }
  | {
      type: 'ResolveBeneficiaryVerification';
      status: Exclude<BeneficiaryVerificationStatus, 'PENDING'>;
      verifiedFullName: string | null;
      now: string;
    };

/**
 * An external account (a beneficiary). Trusting one is an SCA ceremony for customers in SCA
 * regions: start (challenge issued), confirm (proof checked by the caller). A trusted account
 * cannot be deleted: 409 BENEFICIARY_TRUSTED until it is untrusted.
 */
export const externalAccountDecider: Decider<ExternalAccountCommand, ExternalAccountState, ExternalAccountEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateExternalAccount') {
      return state.status === 'none' ? [{ type: 'ExternalAccountCreated', data: command.created }] : [];
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
      ];
    }
    if (state.status !== 'active') throw externalAccountNotFound();
    const ref = { externalAccountId: state.externalAccountId, platformId: state.platformId };
    switch (command.type) {
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
        trusted: false,
        pendingChallenge: null,
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
    }
  },
};
