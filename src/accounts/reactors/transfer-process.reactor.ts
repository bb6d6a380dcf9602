import { CommandBus } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { AppConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { streamNameFor } from '../../infra/ids';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { transferDelayMs, transferScenario } from '../../sandbox';
import { AdvanceTransferOut } from '../commands/advance-transfer-out';
import { RecordSandboxFunding } from '../commands/record-sandbox-funding';
import { FundsCredited } from '../domain/internal-account/internal-account.events';
import { TransferOutFailed } from '../domain/transaction/transaction.events';
import { TRANSFER_STREAM } from '../streams';

/** The task that sends SettleTransfer (subject: the transaction id; job key: it, or `<id>:refund`). */
export const SETTLE_TRANSFER_TASK = 'transfer.settle';

/**
 * The process manager of transfers (checkpointed, at least once):
 * - `TransferOutRequested`: make sure the funds are held or the transfer rejected (finishes a
 *   request that died after its first append): AdvanceTransferOut;
 * - `TransferOutRejected`: give back a hold that raced with the rejection: AdvanceTransferOut;
 * - `TransferOutFundsHeld`, `TransferInRequested`: schedule the settlement task after the sandbox
 *   delay of the counterparty's scenario (job id = transaction id: scheduled once);
 * - `TransferOutFailed` with its refund PENDING: the same task `refundDelayMs` after the failure
 *   (job key `<transactionId>:refund`), which gives the hold back and completes the refund. A
 *   cancellation's refund completes in its own commit: nothing to schedule;
 * - `FundsCredited` for sandbox funding: make sure its incoming transaction exists
 *   (RecordSandboxFunding).
 */
export function transferProcessReactor(commands: CommandStore, commandBus: CommandBus, tasks: TaskScheduler, config: AppConfig): Reactor {
  const scheduleTask = async (event: RecordedEvent, transactionId: string, platformId: string, key: string, delayMs: number) => {
    await tasks.schedule(SETTLE_TRANSFER_TASK, key, delayMs, {
      subjectId: transactionId,
      platformId,
      correlationId: event.metadata.correlationId,
      causationId: event.id,
    });
  };
  const schedule = async (event: RecordedEvent, transactionId: string, platformId: string, suffix: string | null) => {
    await scheduleTask(event, transactionId, platformId, transactionId, transferDelayMs(transferScenario(suffix), config.sandbox));
  };
  return {
    name: 'transfer-process',
    handles: ['TransferOutRequested', 'TransferOutRejected', 'TransferOutFundsHeld', 'TransferOutFailed', 'TransferInRequested', 'FundsCredited'],
    async react(event) {
      const data = event.data as { transactionId: string; platformId: string; counterpartySuffix?: string | null };
      switch (event.type) {
        case 'TransferOutRequested':
        case 'TransferOutRejected':
          await commandBus.execute(new AdvanceTransferOut(data.transactionId));
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
        case 'TransferOutFailed': {
          const { refund, failedAt } = event.data as TransferOutFailed['data'];
          // Failures recorded before refunds had their own step carry it COMPLETED already.
          if (refund.status !== 'PENDING') return;
          const delayMs = Date.parse(failedAt) + config.sandbox.refundDelayMs - Date.now();
          await scheduleTask(event, data.transactionId, data.platformId, `${data.transactionId}:refund`, delayMs);
          return;
        }
        case 'FundsCredited': {
          const credit = event.data as FundsCredited['data'];
          if (credit.reason !== 'SANDBOX_FUNDING' || !credit.reference) return;
          // The owner is read from the account's ledger stream by the handler.
          await commandBus.execute(
            new RecordSandboxFunding({
              platformId: credit.platformId,
              transactionId: credit.reference,
              accountId: credit.accountId,
              currency: credit.currency,
              amount: credit.amount,
              completedAt: credit.creditedAt,
            }),
          );
          return;
        }
      }
    },
  };
}
