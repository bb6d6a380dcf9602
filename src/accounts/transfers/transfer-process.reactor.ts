import { AppConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor } from '../../infra/ids';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { transferDelayMs, transferScenario } from '../../sandbox';
import { transactionDecider } from '../domain/transaction/transaction.decider';
import { FundsCredited } from '../domain/internal-account/internal-account.events';
import { TransfersService } from './transfers.service';
import { CommandStore } from '../../infra/commands/command-store';
import { TRANSFER_STREAM } from '../streams';

export const SETTLE_TRANSFER_TASK = 'transfer.settle';

/**
 * The process manager of transfers (checkpointed, at least once):
 * - `TransferOutRequested`: make sure the funds are held or the transfer rejected (finishes a
 *   request that died after its first append);
 * - `TransferOutRejected`: give back a hold that raced with the rejection;
 * - `TransferOutFundsHeld`, `TransferInRequested`: schedule the settlement task after the sandbox
 *   delay of the counterparty's scenario (job id = transaction id: scheduled once);
 * - `FundsCredited` for sandbox funding: make sure its incoming transaction exists.
 */
export function transferProcessReactor(
  commands: CommandStore,
  transfers: TransfersService,
  tasks: TaskScheduler,
  config: AppConfig,
): Reactor {
  const schedule = async (event: RecordedEvent, transactionId: string, platformId: string, suffix: string | null) => {
    const delayMs = transferDelayMs(transferScenario(suffix), config.sandbox);
    await tasks.schedule(SETTLE_TRANSFER_TASK, transactionId, delayMs, {
      subjectId: transactionId,
      platformId,
      correlationId: event.metadata.correlationId,
      causationId: event.id,
    });
  };
  return {
    name: 'transfer-process',
    handles: ['TransferOutRequested', 'TransferOutRejected', 'TransferOutFundsHeld', 'TransferInRequested', 'FundsCredited'],
    async react(event) {
      const data = event.data as { transactionId: string; platformId: string; counterpartySuffix?: string | null };
      switch (event.type) {
        case 'TransferOutRequested':
        case 'TransferOutRejected':
          await transfers.advanceTransferOut(data.transactionId);
          return;
        case 'TransferOutFundsHeld': {
          const { state } = await commands.load(TRANSFER_STREAM, streamNameFor(data.transactionId));
          if (state.status !== 'PENDING') return;
          await schedule(event, data.transactionId, data.platformId, state.counterpartySuffix);
          return;
        }
        case 'TransferInRequested':
          await schedule(event, data.transactionId, data.platformId, data.counterpartySuffix ?? null);
          return;
        case 'FundsCredited': {
          const credit = event.data as FundsCredited['data'];
          if (credit.reason !== 'SANDBOX_FUNDING' || !credit.reference) return;
          const owner = await transfers.accountOwner(credit.platformId, credit.accountId);
          await transfers.recordFunding({
            platformId: credit.platformId,
            transactionId: credit.reference,
            accountId: credit.accountId,
            customerId: owner,
            currency: credit.currency,
            amount: credit.amount,
            completedAt: credit.creditedAt,
          });
          return;
        }
      }
    },
  };
}
