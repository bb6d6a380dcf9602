import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { streamNameFor } from '../../infra/ids';
import { profileDecider } from '../domain/profile/profile.decider';
import { resetDecider } from '../domain/reset/reset.decider';
import { ScaCustomers } from '../sca-customers';
import { ScaFactorResets } from '../sca-factor-resets';
import { profileStreamFor } from '../sca-profiles';
import { SCA_FACTOR_RESET_STREAM, SCA_PROFILE_STREAM } from '../streams';

/** The new SMS number of an SMS_OTP reset, as the contract gives it. */
export interface ResetMobile {
  countryCode: string;
  number: string;
}

export class CompleteFactorReset extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly resetId: string,
    readonly mobile: ResetMobile | null,
  ) {
    super();
  }
}

/** `sca-sms-mobile:<reset id>`: where an SMS_OTP reset seals the customer's new number. */
export function smsMobileVaultId(resetId: string): string {
  return `sca-sms-mobile:${resetId}`;
}

const MAX_ATTEMPTS = 3;

/**
 * Completes the reset and changes the customer's profile in ONE commit of both streams, so the
 * factor is never replaced without a completed reset nor the other way round. A concurrent
 * change of either stream re-decides on fresh state.
 */
@CommandHandler(CompleteFactorReset)
export class CompleteFactorResetHandler implements ICommandHandler<CompleteFactorReset, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: ScaCustomers,
    private readonly resets: ScaFactorResets,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  async execute({ platformId, customerId, resetId, mobile }: CompleteFactorReset): Promise<void> {
    await this.customers.require(platformId, customerId);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(platformId, customerId, resetId, mobile);
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw new DomainError('CONFLICT', 'The reset was changed concurrently; retry the request');
      }
    }
  }

  private async attempt(platformId: string, customerId: string, resetId: string, mobile: ResetMobile | null): Promise<void> {
    const reset = await this.resets.require(platformId, customerId, resetId);
    const profile = await this.commands.load(SCA_PROFILE_STREAM, profileStreamFor(customerId));
    const now = new Date().toISOString();
    const sealed = reset.state.factor === 'SMS_OTP' && mobile ? { vaultId: smsMobileVaultId(resetId), last4: mobile.number.slice(-4) } : null;
    // Decided before sealing: a refused completion seals nothing.
    const resetEvents = resetDecider.decide({ type: 'CompleteReset', mobile: sealed, now }, reset.state);
    const profileEvents = profileDecider.decide(
      { type: 'ApplyFactorReset', platformId, customerId, resetId, factor: reset.state.factor!, mobile: sealed, now },
      profile.state,
    );
    if (sealed && mobile) await this.vault.seal(sealed.vaultId, 'sca-sms-mobile', Buffer.from(`${mobile.countryCode}${mobile.number}`, 'utf8'));
    await this.commands.commit([
      { type: SCA_FACTOR_RESET_STREAM, state: reset.state, streamName: streamNameFor(resetId), events: resetEvents, expectedRevision: reset.revision },
      { type: SCA_PROFILE_STREAM, state: profile.state, streamName: profileStreamFor(customerId), events: profileEvents, expectedRevision: profile.revision },
    ]);
  }
}
