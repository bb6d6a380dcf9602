import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError } from '../../infra/domain/domain-error';
import { newId, streamNameFor } from '../../infra/ids';
import { beneficialOwnerKycStatus, businessVerificationScenario, individualVerificationScenario } from '../../sandbox';
import { deletedCustomerReference } from '../customers.errors';
import { CustomerCommand, CustomerState, VerificationScenario } from '../domain/customer/customer.decider';
import { VerificationView, verificationView } from '../queries/customer.view';
import { CUSTOMER_STREAM } from '../streams';
import { activeOrDeleted, assertOwned } from './customer-guards';

/** `POST /verifications`: submits a customer for KYC/KYB, answers the verification. */
export class SubmitVerification extends Command<VerificationView> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
  ) {
    super();
  }
}

/** In the sandbox the outcome follows the customer's data (magic suffixes, see src/sandbox). */
@CommandHandler(SubmitVerification)
export class SubmitVerificationHandler implements ICommandHandler<SubmitVerification, VerificationView> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId }: SubmitVerification): Promise<VerificationView> {
    const verificationId = newId('Verification');
    const now = new Date().toISOString();
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      if (state.status === 'deleted') throw deletedCustomerReference('customerId');
      return { type: 'SubmitVerification', verificationId, scenario: this.scenarioFor(state), now };
    });
    const state = activeOrDeleted(result.state);
    const record = state.verifications.find((candidate) => candidate.verificationId === verificationId);
    if (!record) throw new DomainError('INTERNAL_ERROR', 'The verification was not recorded');
    return verificationView(customerId, record);
  }

  private scenarioFor(state: CustomerState): VerificationScenario {
    if (state.status === 'none') return { individual: 'CHECK_REQUIREMENTS', business: 'CHECK_REQUIREMENTS', beneficialOwnerKycStatuses: [] };
    if (this.config.mode !== 'sandbox') {
      return {
        individual: 'CHECK_REQUIREMENTS',
        business: 'CHECK_REQUIREMENTS',
        beneficialOwnerKycStatuses: state.profile.beneficialOwners.map((owner) => owner.kycStatus),
      };
    }
    return {
      individual: individualVerificationScenario(state.profile.fullName),
      business: businessVerificationScenario(state.profile.businessInfo?.registrationNumber),
      beneficialOwnerKycStatuses: state.profile.beneficialOwners.map((owner) => beneficialOwnerKycStatus(owner.personalInfo.lastName)),
    };
  }
}
