import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { ScaFactorResetStarted } from '../domain/reset/reset.events';

export const PASS_FACTOR_RESET_WAIT_TASK = 'sca.factor-reset.pass-wait';
export const EXPIRE_FACTOR_RESET_TASK = 'sca.factor-reset.expire';

/**
 * Schedules a reset's two tasks from its recorded start (checkpointed, at least once; the job ids
 * are the reset id, so a replay schedules nothing twice): nothing waits in a process's memory.
 */
export function scaFactorResetsReactor(tasks: TaskScheduler): Reactor {
  return {
    name: 'sca-factor-resets',
    handles: ['ScaFactorResetStarted'],
    async react(event) {
      const data = event.data as ScaFactorResetStarted['data'];
      const payload = { subjectId: data.resetId, platformId: data.platformId, correlationId: event.metadata.correlationId, causationId: event.id };
      await tasks.scheduleMany([
        { taskName: PASS_FACTOR_RESET_WAIT_TASK, key: data.resetId, delayMs: Date.parse(data.livenessAvailableAt) - Date.now(), payload },
        { taskName: EXPIRE_FACTOR_RESET_TASK, key: data.resetId, delayMs: Date.parse(data.expiresAt) - Date.now(), payload },
      ]);
    },
  };
}
