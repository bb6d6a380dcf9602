import { Inject, Injectable } from '@nestjs/common';
import { CustomersQuery } from '../customers';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { DomainError, FieldError, ValidationError } from '../infra/domain/domain-error';
import { newId, streamNameFor } from '../infra/ids';
import { beneficiaryCheck, pendingCheckOutcome } from '../sandbox';
import { ScaChallenges, sequenceIdOfFirstChallenge } from '../sca';
import { ProofFields } from '../sca';
import { ScaCustomers } from '../sca';
import { scaNotRequired } from '../sca';
import { ExternalAccountCommand, ExternalAccountState, externalAccountDecider, externalAccountNotFound } from './domain/external-account/external-account.decider';
import { AccountInfo, TrustAction, beneficiaryName } from './domain/external-account/external-account.events';
import { ExternalAccountView, externalAccountView } from './queries/external-account.view';
import { CommandStore } from '../infra/commands/command-store';
import { EXTERNAL_ACCOUNT_STREAM } from './streams';

export interface NewExternalAccount {
  customerId: string;
  currency: string;
  platformAccountId: string | null;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
  defaultUmaDepositAccount?: boolean;
  accountInfo: AccountInfo;
  primaryIdentifier: string;
}

/** What a trust confirmation carries: the proof, and the challenge the caller answers (if it says). */
export interface TrustConfirmation {
  challengeId: string | null;
  proof: ProofFields;
}

export interface TrustStart {
  externalAccountId: string;
  action: TrustAction;
  /** The reference's ScaChallenge; a trust step has no `purpose`, so it is omitted. */
  scaChallenge: {
    id: string;
    expiresAt: string;
    factor: 'SMS_OTP';
    availableFactors: Array<'SMS_OTP'>;
  };
}

/** External accounts: create (with the sandbox beneficiary name check), delete, trust/untrust. */
@Injectable()
export class ExternalAccountsService {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: CustomersQuery,
    private readonly scaCustomers: ScaCustomers,
    private readonly scaChallenges: ScaChallenges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(platformId: string, input: NewExternalAccount, primaryField: string): Promise<ExternalAccountView> {
    // The reference declares neither 404 nor 410 on create: the customerId is a bad field.
    const customer = await this.customers.findById(platformId, input.customerId);
    if (!customer || customer.isDeleted) {
      const message = customer ? 'The customer was deleted' : 'No such customer';
      throw new ValidationError([{ field: 'customerId', constraint: {}, message }]);
    }
    const name = beneficiaryName(input.accountInfo.beneficiary);
    const check = this.config.mode === 'sandbox' ? beneficiaryCheck(input.primaryIdentifier, name) : null;
    if (check?.kind === 'INVALID_ACCOUNT') {
      const errors: FieldError[] = [{ field: primaryField, constraint: {}, message: 'The receiving institution reports this account as invalid' }];
      throw new ValidationError(errors, 'INVALID_BANK_ACCOUNT', 'The account cannot receive payments');
    }
    const externalAccountId = newId('ExternalAccount');
    const result = await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), {
      type: 'CreateExternalAccount',
      created: {
        externalAccountId,
        platformId,
        customerId: input.customerId,
        currency: input.currency,
        platformAccountId: input.platformAccountId,
        ...(input.ownershipType ? { ownershipType: input.ownershipType } : {}),
        ...(input.defaultUmaDepositAccount !== undefined ? { defaultUmaDepositAccount: input.defaultUmaDepositAccount } : {}),
        accountInfo: input.accountInfo,
        primaryIdentifier: input.primaryIdentifier,
        beneficiaryVerification:
          input.accountInfo.beneficiary && check?.kind === 'RESULT' ? { status: check.status, verifiedFullName: check.verifiedFullName } : null,
        createdAt: new Date().toISOString(),
      },
    });
    return externalAccountView(active(result.state));
  }

  /**
   * The receiving institution's late answer to a PENDING name check (a scheduled task): a no-op
   * when the check is no longer pending or the account was deleted.
   */
  async resolvePendingBeneficiaryCheck(externalAccountId: string): Promise<void> {
    const { state } = await this.commands.load(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId));
    if (state.status !== 'active' || state.beneficiaryVerification?.status !== 'PENDING') return;
    const outcome = pendingCheckOutcome(beneficiaryName(state.accountInfo.beneficiary));
    await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), {
      type: 'ResolveBeneficiaryVerification',
      status: outcome.status,
      verifiedFullName: outcome.verifiedFullName,
      now: new Date().toISOString(),
    });
  }

  async delete(platformId: string, externalAccountId: string): Promise<void> {
    await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), (state): ExternalAccountCommand => {
      assertOwned(state, platformId);
      return { type: 'DeleteExternalAccount', now: new Date().toISOString() };
    });
  }

  /**
   * Trust and untrust are SCA ceremonies on the challenge engine (`src/sca`): one SMS_OTP step,
   * so the code is accepted once and wrong codes count towards the customer's SCA lock.
   */
  async startTrustChange(platformId: string, externalAccountId: string, action: TrustAction): Promise<TrustStart> {
    const { state } = await this.commands.load(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId));
    assertOwned(state, platformId);
    if (!(await this.scaCustomers.appliesTo(platformId, state.customerId))) throw scaNotRequired();
    return this.issueTrustChallenge(platformId, externalAccountId, action, state).catch(asDeclaredTrustError);
  }

  private async issueTrustChallenge(
    platformId: string,
    externalAccountId: string,
    action: TrustAction,
    state: Exclude<ExternalAccountState, { status: 'none' }>,
  ): Promise<TrustStart> {
    const now = new Date().toISOString();
    // Refuse an impossible change before any challenge is issued.
    externalAccountDecider.decide({ type: 'StartTrustChange', action, challengeId: '', expiresAt: now, now }, state);
    const plan = await this.scaChallenges.plan({
      platformId,
      customerId: state.customerId,
      subject: { type: 'ExternalAccount', id: externalAccountId },
      factor: 'SMS_OTP',
      steps: [{ purpose: null, linking: null }],
      requireSession: false,
    });
    const { challengeId, expiresAt } = plan.firstChallenge;
    await this.scaChallenges.open(plan);
    await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), (current): ExternalAccountCommand => {
      assertOwned(current, platformId);
      return { type: 'StartTrustChange', action, challengeId, expiresAt, now: new Date().toISOString() };
    });
    return {
      externalAccountId,
      action,
      scaChallenge: { id: challengeId, expiresAt, factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] },
    };
  }

  async confirmTrustChange(platformId: string, externalAccountId: string, action: TrustAction, confirmation: TrustConfirmation): Promise<ExternalAccountView> {
    const { state } = await this.commands.load(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId));
    assertOwned(state, platformId);
    const challenge = state.pendingChallenge;
    // The account's own refusals first (no ceremony, or a lapsed one): the decider answers them.
    if (!challenge || challenge.action !== action || Date.parse(challenge.expiresAt) <= Date.now()) {
      externalAccountDecider.decide({ type: 'ConfirmTrustChange', action, proofAccepted: true, now: new Date().toISOString() }, state);
      throw new DomainError('CONFLICT', 'No trust ceremony is in progress', { reason: 'NO_PENDING_CHALLENGE' });
    }
    // A proof for another challenge (an older start, another ceremony) must not satisfy this one.
    if (confirmation.challengeId !== null && confirmation.challengeId !== challenge.challengeId) {
      throw new DomainError('CONFLICT', 'challengeId is not the challenge of the ceremony in progress', {
        reason: 'CHALLENGE_MISMATCH',
        challengeId: challenge.challengeId,
      });
    }
    await this.scaChallenges
      .authorize({
        platformId,
        sequenceId: sequenceIdOfFirstChallenge(challenge.challengeId),
        proof: confirmation.proof,
        endUserIpAddress: null,
        requireSession: false,
        expectedChallengeId: challenge.challengeId,
      })
      .catch(asDeclaredTrustError);
    const result = await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), (current): ExternalAccountCommand => {
      assertOwned(current, platformId);
      return { type: 'ConfirmTrustChange', action, proofAccepted: true, now: new Date().toISOString() };
    });
    return externalAccountView(active(result.state));
  }
}

/**
 * The trust operations declare 400, 404 and 409 only: an SCA lock (423 ACCOUNT_LOCKED elsewhere)
 * is a state conflict here, with the lock's details and its reason.
 */
function asDeclaredTrustError(error: unknown): never {
  if (error instanceof DomainError && error.code === 'ACCOUNT_LOCKED') {
    throw new DomainError('CONFLICT', error.message, { reason: 'ACCOUNT_LOCKED', ...(error.details ?? {}) });
  }
  throw error;
}

function assertOwned(state: ExternalAccountState, platformId: string): asserts state is Exclude<ExternalAccountState, { status: 'none' }> {
  if (state.status !== 'active' || state.platformId !== platformId) throw externalAccountNotFound();
}

function active(state: ExternalAccountState): Exclude<ExternalAccountState, { status: 'none' }> {
  if (state.status === 'none') throw externalAccountNotFound();
  return state;
}
