import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { ExistingOperation, OperationCommand, acceptsStep } from '../domain/operation/operation.decider';
import { STABLECOIN_OPERATION_STREAM } from '../streams';
import { OperationCommits } from './operation-commits';

/** FUND: the awaited funding arrived; SETTLE: the provider completes or fails it (its scenario); EXPIRE: the funding window closed. */
export type ProviderStep = 'FUND' | 'SETTLE' | 'EXPIRE';

/** The failure code a failed operation shows (the reference's example of a stable internal code). */
export const PROVIDER_FAILURE_REASON = 'PROVIDER_TRANSFER_FAILED';

/** The (sandbox) provider's next answer for an operation; a task sends it (STABLECOIN_STEP_TASKS). */
export class AdvanceStablecoinOperation extends Command<void> {
  constructor(
    readonly operationId: string,
    readonly step: ProviderStep,
  ) {
    super();
  }
}

/**
 * Runs at least once, so every step is idempotent: the operation's status says whether it is due;
 * its ledger movements, the coin's supply and its own event are written together (see
 * OperationCommits). A completion settles the hold and pays the credit; a failure or expiry
 * releases the hold and gives the burn's reservation back.
 */
@CommandHandler(AdvanceStablecoinOperation)
export class AdvanceStablecoinOperationHandler implements ICommandHandler<AdvanceStablecoinOperation, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly commits: OperationCommits,
  ) {}

  async execute({ operationId, step }: AdvanceStablecoinOperation): Promise<void> {
    const stream = streamNameFor(operationId);
    const { state } = await this.commands.load(STABLECOIN_OPERATION_STREAM, stream);
    if (state.status === 'none') return;
    const now = new Date().toISOString();
    switch (step) {
      case 'FUND':
        await this.commands.handle(STABLECOIN_OPERATION_STREAM, stream, { type: 'RecordFunding', now });
        return;
      case 'SETTLE':
        if (state.providerScenario !== 'FAIL') {
          if (acceptsStep(state.status, 'CompleteOperation')) await this.commits.complete(state, now);
          return;
        }
        return this.end(state, { type: 'FailOperation', failureReason: PROVIDER_FAILURE_REASON, now });
      case 'EXPIRE':
        return this.end(state, { type: 'ExpireOperation', now });
    }
  }

  private async end(operation: ExistingOperation, command: Extract<OperationCommand, { type: 'FailOperation' | 'ExpireOperation' }>): Promise<void> {
    if (acceptsStep(operation.status, command.type)) await this.commits.end(operation, command);
  }
}
