import { AppConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { settlementDelayMs } from '../domain/incoming-payment.decider';
import { IncomingPaymentEvent } from '../domain/incoming-payment.events';

/** The tasks of an incoming payment (subject: the transaction id). */
export const ASK_APPROVAL_TASK = 'incoming.ask-approval';
export const EXPIRE_APPROVAL_TASK = 'incoming.expire-approval';
export const SETTLE_INCOMING_TASK = 'incoming.settle';
export const COMPLETE_INCOMING_REFUND_TASK = 'incoming.complete-refund';

type Data<T extends IncomingPaymentEvent['type']> = Extract<IncomingPaymentEvent, { type: T }>['data'];

/**
 * The process manager of incoming payments (checkpointed, at least once; each task's job id is
 * its step, so a replay schedules nothing twice):
 * - a round opens (`IncomingPaymentReceived`, `...CounterpartyInformationProvided`): ask the
 *   platform now (the approval webhook), and expire the round at its deadline;
 * - `IncomingPaymentApprovalDeferred`: expire at the new deadline;
 * - `IncomingPaymentApproved`: settle after the payer's delay (at once for most; the approval
 *   usually settled it already, and the task then finds nothing to do);
 * - `IncomingPaymentFailed` with a pending refund: complete it after the sandbox refund delay.
 */
export function incomingPaymentsReactor(tasks: TaskScheduler, config: AppConfig, behaviourOf: (transactionId: string) => Promise<Data<'IncomingPaymentReceived'>['senderBehaviour'] | null>): Reactor {
  return {
    name: 'incoming-payments',
    handles: ['IncomingPaymentReceived', 'IncomingPaymentCounterpartyInformationProvided', 'IncomingPaymentApprovalDeferred', 'IncomingPaymentApproved', 'IncomingPaymentFailed'],
    async react(event: RecordedEvent) {
      const { transactionId, platformId } = event.data as { transactionId: string; platformId: string };
      const payload = { subjectId: transactionId, platformId, correlationId: event.metadata.correlationId, causationId: event.id };
      const atDeadline = (deadline: string) =>
        tasks.schedule(EXPIRE_APPROVAL_TASK, `${transactionId}:${deadline}`, Date.parse(deadline) - Date.now(), payload);
      switch (event.type) {
        case 'IncomingPaymentReceived':
        case 'IncomingPaymentCounterpartyInformationProvided': {
          const data = event.data as Data<'IncomingPaymentReceived'> | Data<'IncomingPaymentCounterpartyInformationProvided'>;
          const round = 'round' in data ? data.round : 1;
          await tasks.schedule(ASK_APPROVAL_TASK, `${transactionId}:${round}`, 0, { ...payload, round, occurredAt: event.createdAt.toISOString() });
          await atDeadline(data.approvalDeadline);
          return;
        }
        case 'IncomingPaymentApprovalDeferred':
          await atDeadline((event.data as Data<'IncomingPaymentApprovalDeferred'>).approvalDeadline);
          return;
        case 'IncomingPaymentApproved': {
          const behaviour = await behaviourOf(transactionId);
          if (behaviour) await tasks.schedule(SETTLE_INCOMING_TASK, transactionId, settlementDelayMs(behaviour, config.sandbox), payload);
          return;
        }
        case 'IncomingPaymentFailed':
          if ((event.data as Data<'IncomingPaymentFailed'>).refund?.status === 'PENDING') {
            await tasks.schedule(COMPLETE_INCOMING_REFUND_TASK, transactionId, config.sandbox.refundDelayMs, payload);
          }
          return;
      }
    },
  };
}
