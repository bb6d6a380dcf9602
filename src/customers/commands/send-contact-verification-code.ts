import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { streamNameFor } from '../../infra/ids';
import { contactCodePolicy } from '../contact-verification-providers';
import { deletedCustomerConflict } from '../customers.errors';
import { ContactChannel } from '../domain/customer/contact-verification.events';
import { CustomerCommand } from '../domain/customer/customer.decider';
import { CUSTOMER_STREAM } from '../streams';
import { assertOwned } from './customer-guards';

/** `POST /customers/{id}/verify-email` and `/verify-phone`: sends (or re-sends) a code; answers nothing (204). */
export class SendContactVerificationCode extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly channel: ContactChannel,
  ) {
    super();
  }
}

/**
 * Records the code sent and its expiry. Only the sandbox requires contact verification, and its
 * code is always `123456`: nothing is delivered (contact-verification-providers.ts).
 */
@CommandHandler(SendContactVerificationCode)
export class SendContactVerificationCodeHandler implements ICommandHandler<SendContactVerificationCode, void> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId, channel }: SendContactVerificationCode): Promise<void> {
    const now = new Date().toISOString();
    const policy = contactCodePolicy(this.config);
    await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      if (state.status === 'deleted') throw deletedCustomerConflict();
      return { type: 'SendContactVerificationCode', channel, policy, now };
    });
  }
}
