import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { isChallengeExpired } from '../domain/sequence/sequence.decider';
import { sequenceStreamFor } from '../sca-challenges.service';
import { SCA_SEQUENCE_STREAM } from '../streams';

/** The task at a challenge's expiresAt (scheduled by the `sca-challenges` reactor). */
export class ExpireScaChallenge extends Command<void> {
  constructor(
    readonly sequenceId: string,
    readonly challengeId: string,
  ) {
    super();
  }
}

/**
 * Fails the sequence when the challenge is still its live one and still unsatisfied (a no-op
 * otherwise); throws, so that the task runs again, when it fired before the challenge's expiresAt.
 */
@CommandHandler(ExpireScaChallenge)
export class ExpireScaChallengeHandler implements ICommandHandler<ExpireScaChallenge, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ sequenceId, challengeId }: ExpireScaChallenge): Promise<void> {
    const { state } = await this.commands.load(SCA_SEQUENCE_STREAM, sequenceStreamFor(sequenceId));
    if (state.status !== 'OPEN' || state.current.challengeId !== challengeId) return;
    const now = new Date().toISOString();
    if (!isChallengeExpired(state.current, now)) throw new Error(`Challenge ${challengeId} is not due before ${state.current.expiresAt}`);
    await this.commands.handle(SCA_SEQUENCE_STREAM, sequenceStreamFor(sequenceId), { type: 'ExpireChallenge', challengeId, now });
  }
}
