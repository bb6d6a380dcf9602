import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { ProofFields, ScaChallenges, sequenceIdOfFirstChallenge } from '../../sca';
import { ExternalAccountCommand, externalAccountDecider } from '../domain/external-account/external-account.decider';
import { TrustAction } from '../domain/external-account/external-account.events';
import { ExternalAccountView, externalAccountView } from '../queries/external-account.view';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';
import { asDeclaredTrustError, assertOwned, existing } from './external-account-guards';

/** What a trust confirmation carries: the proof, and the challenge the caller answers (if it says). */
export interface TrustConfirmation {
  challengeId: string | null;
  proof: ProofFields;
}

/** `POST /customers/external-accounts/{id}/trust/confirm` and `.../untrust/confirm`: answers the account. */
export class ConfirmTrustChange extends Command<ExternalAccountView> {
  constructor(
    readonly platformId: string,
    readonly externalAccountId: string,
    readonly action: TrustAction,
    readonly confirmation: TrustConfirmation,
  ) {
    super();
  }
}

/**
 * Checks the ceremony in progress is the one answered, has the challenge engine check the proof
 * (accepted once; wrong codes count towards the SCA lock), then records the change.
 */
@CommandHandler(ConfirmTrustChange)
export class ConfirmTrustChangeHandler implements ICommandHandler<ConfirmTrustChange, ExternalAccountView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly scaChallenges: ScaChallenges,
  ) {}

  async execute({ platformId, externalAccountId, action, confirmation }: ConfirmTrustChange): Promise<ExternalAccountView> {
    const stream = streamNameFor(externalAccountId);
    const { state } = await this.commands.load(EXTERNAL_ACCOUNT_STREAM, stream);
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
    const result = await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, stream, (current): ExternalAccountCommand => {
      assertOwned(current, platformId);
      return { type: 'ConfirmTrustChange', action, proofAccepted: true, now: new Date().toISOString() };
    });
    return externalAccountView(existing(result.state));
  }
}
