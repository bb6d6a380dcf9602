import { Inject, Injectable } from '@nestjs/common';
import { CustomersQuery } from '../customers/queries/customers.query';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { DomainError, FieldError, ValidationError } from '../infra/domain/domain-error';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { newId, streamNameFor } from '../infra/ids';
import { beneficiaryCheck } from '../sandbox/beneficiary-checks';
import { ExternalAccountCommand, ExternalAccountState, externalAccountDecider, externalAccountNotFound } from './domain/external-account/external-account.decider';
import { AccountInfo, TrustAction } from './domain/external-account/external-account.events';
import { ExternalAccountView, externalAccountView } from './queries/external-account.view';

/** EU member states (ISO 3166-1 alpha-2): customers whose `region` is one need SCA (DECISIONS.md section 3). */
export const SCA_REGIONS = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE',
  'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
]);

/** Sandbox SMS code for SCA challenges (DECISIONS.md section 3). */
export const SANDBOX_SCA_CODE = '123456';
const TRUST_CHALLENGE_TTL_MS = 5 * 60 * 1000;

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

  async delete(platformId: string, externalAccountId: string): Promise<void> {
    await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, (state): ExternalAccountCommand => {
      assertOwned(state, platformId);
      return { type: 'DeleteExternalAccount', now: new Date().toISOString() };
    });
  }

  async startTrustChange(platformId: string, externalAccountId: string, action: TrustAction): Promise<TrustStart> {
    const { state } = await this.events.load(streamNameFor(externalAccountId), externalAccountDecider);
    assertOwned(state, platformId);
    await this.assertScaCustomer(platformId, state.customerId);
    const challengeId = newId('ScaChallenge');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + TRUST_CHALLENGE_TTL_MS).toISOString();
    await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, (current): ExternalAccountCommand => {
      assertOwned(current, platformId);
      return { type: 'StartTrustChange', action, challengeId, expiresAt, now: now.toISOString() };
    });
    return {
      externalAccountId,
      action,
      scaChallenge: { id: challengeId, expiresAt, factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: null },
    };
  }

  async confirmTrustChange(platformId: string, externalAccountId: string, action: TrustAction, code: string): Promise<ExternalAccountView> {
    const result = await this.events.handle(streamNameFor(externalAccountId), externalAccountDecider, (state): ExternalAccountCommand => {
      assertOwned(state, platformId);
      return { type: 'ConfirmTrustChange', action, proofAccepted: code === SANDBOX_SCA_CODE, now: new Date().toISOString() };
    });
    return externalAccountView(active(result.state));
  }

  /** Trust is an SCA feature: customers outside SCA regions get 409 (as every SCA endpoint). */
  private async assertScaCustomer(platformId: string, customerId: string): Promise<void> {
    const customer = await this.customers.findById(platformId, customerId);
    if (!customer || customer.isDeleted || !customer.region || !SCA_REGIONS.has(customer.region)) {
      throw new DomainError('CONFLICT', 'Strong Customer Authentication does not apply to this customer', { reason: 'SCA_NOT_REQUIRED' });
    }
  }
}

function assertOwned(state: ExternalAccountState, platformId: string): asserts state is Exclude<ExternalAccountState, { status: 'none' }> {
  if (state.status !== 'active' || state.platformId !== platformId) throw externalAccountNotFound();
}

function active(state: ExternalAccountState): Exclude<ExternalAccountState, { status: 'none' }> {
  if (state.status === 'none') throw externalAccountNotFound();
  return state;
}
