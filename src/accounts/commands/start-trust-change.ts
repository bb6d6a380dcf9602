import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { ScaChallenges, ScaCustomers, scaNotRequired } from '../../sca';
import { ExternalAccountCommand, externalAccountDecider } from '../domain/external-account/external-account.decider';
import { TrustAction } from '../domain/external-account/external-account.events';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';
import { ExistingExternalAccount, asDeclaredTrustError, assertOwned } from './external-account-guards';

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

/** `POST /customers/external-accounts/{id}/trust` and `.../untrust`: answers the challenge issued. */
export class StartTrustChange extends Command<TrustStart> {
  constructor(
    readonly platformId: string,
    readonly externalAccountId: string,
    readonly action: TrustAction,
  ) {
    super();
  }
}

/**
 * Trust and untrust are SCA ceremonies on the challenge engine (`src/sca`): one SMS_OTP step,
 * so the code is accepted once and wrong codes count towards the customer's SCA lock. Customers
 * outside SCA regions are refused (SCA_NOT_REQUIRED), and so is an impossible change, before any
 * challenge is issued.
 */
@CommandHandler(StartTrustChange)
export class StartTrustChangeHandler implements ICommandHandler<StartTrustChange, TrustStart> {
  constructor(
    private readonly commands: CommandStore,
    private readonly scaCustomers: ScaCustomers,
    private readonly scaChallenges: ScaChallenges,
  ) {}

  async execute({ platformId, externalAccountId, action }: StartTrustChange): Promise<TrustStart> {
    const { state } = await this.commands.load(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId));
    assertOwned(state, platformId);
    // The platform's own accounts have no customer to authenticate.
    if (state.customerId === null || !(await this.scaCustomers.appliesTo(platformId, state.customerId))) throw scaNotRequired();
    return this.issueTrustChallenge(platformId, externalAccountId, action, { ...state, customerId: state.customerId }).catch(asDeclaredTrustError);
  }

  private async issueTrustChallenge(
    platformId: string,
    externalAccountId: string,
    action: TrustAction,
    state: ExistingExternalAccount & { customerId: string },
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
}
