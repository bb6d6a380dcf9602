import { AppConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { OwnershipChallengeIssued } from '../domain/external-account/external-account.events';

export const RESOLVE_LIVENESS_CHECK_TASK = 'external-account.resolve-liveness-check';

/**
 * The sandbox liveness provider answers a LIVENESS challenge `SANDBOX_SETTLEMENT_DELAY_MS` after it
 * is issued, as an issuer or a bank answers (job id = account and challenge: once however often
 * this replays).
 */
export function livenessCheckReactor(tasks: TaskScheduler, config: AppConfig): Reactor {
  return {
    name: 'liveness-check',
    handles: ['OwnershipChallengeIssued'],
    async react(event: RecordedEvent) {
      const data = event.data as OwnershipChallengeIssued['data'];
      if (data.method !== 'LIVENESS' || config.mode !== 'sandbox') return;
      await tasks.schedule(RESOLVE_LIVENESS_CHECK_TASK, `${data.externalAccountId}:${data.nonce}`, config.sandbox.settlementDelayMs, {
        subjectId: data.externalAccountId,
        platformId: data.platformId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
        nonce: data.nonce,
      });
    },
  };
}
