import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { streamNameFor } from '../../infra/ids';
import { SANDBOX_CONTACT_VERIFICATION_CODE, contactCodePolicy } from '../contact-verification-providers';
import { deletedCustomerConflict } from '../customers.errors';
import { channelLocked, isChannelLocked, wrongCode } from '../domain/customer/contact-verification';
import { ContactChannel } from '../domain/customer/contact-verification.events';
import { CustomerCommand } from '../domain/customer/customer.decider';
import { CustomerView, customerView } from '../queries/customer.view';
import { openCustomerView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { activeOrDeleted, assertOwned } from './customer-guards';

/** `POST /customers/{id}/verify-email/confirm` and `/verify-phone/confirm`: answers the customer. */
export class ConfirmContactVerificationCode extends Command<CustomerView> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly channel: ContactChannel,
    readonly code: string,
  ) {
    super();
  }
}

/**
 * The decider records a wrong code (the run of wrong codes, and the lock on the last one allowed)
 * before this answers it: 400 `WRONG_CODE` with the attempts left, or the 409 lock.
 */
@CommandHandler(ConfirmContactVerificationCode)
export class ConfirmContactVerificationCodeHandler implements ICommandHandler<ConfirmContactVerificationCode, CustomerView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly personalData: PersonalDataKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId, channel, code }: ConfirmContactVerificationCode): Promise<CustomerView> {
    const now = new Date().toISOString();
    const policy = contactCodePolicy(this.config);
    // Only sandbox providers require contact verification; their code is fixed.
    const codeMatches = this.config.mode === 'sandbox' && code.trim() === SANDBOX_CONTACT_VERIFICATION_CODE;
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      if (state.status === 'deleted') throw deletedCustomerConflict();
      return { type: 'ConfirmContactVerificationCode', channel, codeMatches, policy, now };
    });
    const state = activeOrDeleted(result.state);
    if (!codeMatches) {
      const recorded = state.contactVerification?.[channel === 'EMAIL' ? 'email' : 'phone'];
      if (recorded && isChannelLocked(recorded, now)) throw channelLocked(channel, recorded.lockedUntil!, recorded.failedAttempts);
      throw wrongCode(recorded?.failedAttempts ?? 0, policy.maxFailedAttempts);
    }
    return openCustomerView(customerView(state), this.personalData);
  }
}
