import { Inject, Injectable } from '@nestjs/common';
import { CustomersQuery } from '../customers/queries/customers.query';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { DomainError, FieldError, ValidationError } from '../infra/domain/domain-error';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { newId, streamNameFor } from '../infra/ids';
import { beneficiaryCheck, pendingCheckOutcome } from '../sandbox/beneficiary-checks';
import { ScaChallenges, sequenceIdOfFirstChallenge } from '../sca/sca-challenges.service';
import { ScaCustomers } from '../sca/sca-customers';
import { scaNotRequired } from '../sca/sca.errors';
import { ExternalAccountCommand, ExternalAccountState, externalAccountDecider, externalAccountNotFound } from './domain/external-account/external-account.decider';
import { AccountInfo, TrustAction } from './domain/external-account/external-account.events';
import { ExternalAccountView, externalAccountView } from './queries/external-account.view';

export interface NewExternalAccount {
  customerId: string;
  currency: string;
  platformAccountId: string | null;
  accountInfo: AccountInfo;
  primaryIdentifier: string;
}

export interface TrustStart {
  externalAccountId: string;
  action: TrustAction;
  scaChallenge: {
    id: string;
    expiresAt: string;
    factor: 'SMS_OTP';
    availableFactors: Array<'SMS_OTP'>;
    purpose: null;
  };
}

/** External accounts: create (with the sandbox beneficiary name check), delete, trust/untrust. */
@Injectable()
export class ExternalAccountsService {
  constructor(
    private readonly events: EventStoreService,
    private readonly customers: CustomersQuery,
    private readonly scaCustomers: ScaCustomers,
    private readonly scaChallenges: ScaChallenges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(platformId: string, input: NewExternalAccount, primaryField: string): Promise<ExternalAccountView> {
    const customer = await this.customers.findById(platformId, input.customerId);
    if (!customer) throw new DomainError('USER_NOT_FOUND', 'Customer not found');
    if (customer.isDeleted) throw new DomainError('CUSTOMER_DELETED', 'The customer was deleted');
    const beneficiaryName = input.accountInfo.beneficiary?.fullName ?? null;
    const check = this.config.mode === 'sandbox' ? beneficiaryCheck(input.primaryIdentifier, beneficiaryName) : null;
    if (check?.kind === 'INVALID_ACCOUNT') {
      const errors: FieldError[] = [{ field: primaryField, constraint: 'FORMAT', message: 'The receiving institution reports this account as invalid' }];
      throw new ValidationError(errors, 'INVALID_BANK_ACCOUNT', 'The account cannot receive payments');
    }
    const externalAccountId = newId('ExternalAccount');
    const result = await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, {
      type: 'CreateExternalAccount',
      created: {
        externalAccountId,
        platformId,
        customerId: input.customerId,
        currency: input.currency,
        platformAccountId: input.platformAccountId,
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
    const { state } = await this.events.load(streamNameFor(externalAccountId), externalAccountDecider);
    if (state.status !== 'active' || state.beneficiaryVerification?.status !== 'PENDING') return;
    const outcome = pendingCheckOutcome(state.accountInfo.beneficiary?.fullName ?? null);
    await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, {
      type: 'ResolveBeneficiaryVerification',
      status: outcome.status,
      verifiedFullName: outcome.verifiedFullName,
      now: new Date().toISOString(),
    });
  }

  async delete(platformId: string, externalAccountId: string): Promise<void> {
    await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, (state): ExternalAccountCommand => {
      assertOwned(state, platformId);
      return { type: 'DeleteExternalAccount', now: new Date().toISOString() };
    });
  }

  /**
   * Trust and untrust are SCA ceremonies on the challenge engine (`src/sca`): one SMS_OTP step,
   * so the code is accepted once and wrong codes count towards the customer's SCA lock.
   */
  async startTrustChange(platformId: string, externalAccountId: string, action: TrustAction): Promise<TrustStart> {
    const { state } = await this.events.load(streamNameFor(externalAccountId), externalAccountDecider);
    assertOwned(state, platformId);
    if (!(await this.scaCustomers.appliesTo(platformId, state.customerId))) throw scaNotRequired();
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
    await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, (current): ExternalAccountCommand => {
      assertOwned(current, platformId);
      return { type: 'StartTrustChange', action, challengeId, expiresAt, now: new Date().toISOString() };
    });
    return {
      externalAccountId,
      action,
      scaChallenge: { id: challengeId, expiresAt, factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: null },
    };
  }

  async confirmTrustChange(platformId: string, externalAccountId: string, action: TrustAction, code: string): Promise<ExternalAccountView> {
    const { state } = await this.events.load(streamNameFor(externalAccountId), externalAccountDecider);
    assertOwned(state, platformId);
    const challenge = state.pendingChallenge;
    // The account's own refusals first (no ceremony, or a lapsed one): the decider answers them.
    if (!challenge || challenge.action !== action || Date.parse(challenge.expiresAt) <= Date.now()) {
      externalAccountDecider.decide({ type: 'ConfirmTrustChange', action, proofAccepted: true, now: new Date().toISOString() }, state);
      throw new DomainError('CONFLICT', 'No trust ceremony is in progress', { reason: 'NO_PENDING_CHALLENGE' });
    }
    await this.scaChallenges.authorize({
      platformId,
      sequenceId: sequenceIdOfFirstChallenge(challenge.challengeId),
      proof: { code },
      endUserIpAddress: null,
      requireSession: false,
    });
    const result = await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, (current): ExternalAccountCommand => {
      assertOwned(current, platformId);
      return { type: 'ConfirmTrustChange', action, proofAccepted: true, now: new Date().toISOString() };
    });
    return externalAccountView(active(result.state));
  }
}

function assertOwned(state: ExternalAccountState, platformId: string): asserts state is Exclude<ExternalAccountState, { status: 'none' }> {
  if (state.status !== 'active' || state.platformId !== platformId) throw externalAccountNotFound();
}

function active(state: ExternalAccountState): Exclude<ExternalAccountState, { status: 'none' }> {
  if (state.status === 'none') throw externalAccountNotFound();
  return state;
}
