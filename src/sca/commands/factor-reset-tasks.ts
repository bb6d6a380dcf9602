import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { SCA_FACTOR_RESET_STREAM } from '../streams';

/**
 * The tasks of a 2FA reset (scheduled by the `sca-factor-resets` reactor): at
 * `livenessAvailableAt` the waiting period ends, at `expiresAt` an uncompleted reset expires.
 * Each is a no-op once done or no longer applicable, and throws when it fired early (the queue
 * runs it again), so a process restart or a second run changes nothing.
 */
export class RunFactorResetTask extends Command<void> {
  constructor(
    readonly resetId: string,
    readonly step: 'PassWaitingPeriod' | 'ExpireReset',
  ) {
    super();
  }
}

@CommandHandler(RunFactorResetTask)
export class RunFactorResetTaskHandler implements ICommandHandler<RunFactorResetTask, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ resetId, step }: RunFactorResetTask): Promise<void> {
    await this.commands.handle(SCA_FACTOR_RESET_STREAM, streamNameFor(resetId), { type: step, now: new Date().toISOString() });
  }
}
