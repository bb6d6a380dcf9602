import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SecurityEventType } from '../domain/profile/profile.events';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';

/** `POST /sca/record-event`: the contract's RecordSecurityEventResponse (null `lockedUntil` left out). */
export interface SecurityEventAnswer {
  eventType: SecurityEventType;
  suspended: boolean;
  lockedUntil?: string;
  failedAttempts: number;
}

export class RecordSecurityEvent extends Command<SecurityEventAnswer> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly eventType: SecurityEventType,
  ) {
    super();
  }
}

/** Records the event on the customer's SCA profile and answers the login-security state after it. */
@CommandHandler(RecordSecurityEvent)
export class RecordSecurityEventHandler implements ICommandHandler<RecordSecurityEvent, SecurityEventAnswer> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
  ) {}

  async execute({ platformId, customerId, eventType }: RecordSecurityEvent): Promise<SecurityEventAnswer> {
    await this.customers.require(platformId, customerId);
    const { login } = await this.profiles.handle(customerId, { type: 'RecordSecurityEvent', platformId, customerId, eventType, now: new Date().toISOString() });
    const answer: SecurityEventAnswer = { eventType, suspended: login.suspended, failedAttempts: login.failedAttempts };
    if (login.lockedUntil !== null && !login.suspended) answer.lockedUntil = login.lockedUntil;
    return answer;
  }
}
