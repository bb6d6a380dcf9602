import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';

/** The task that sends RecoverAgentAction (key: the action id, so it is scheduled once per approval). */
export const SETTLE_AGENT_ACTION_TASK = 'agent.action.settle';

interface ApprovedActionData {
  agentId: string;
  platformId: string;
  actionId: string;
  status?: string;
}

/**
 * Guarantees an approved action its outcome (docs/agents.md "Crash safety"): on
 * `AgentActionSubmitted` as APPROVED and on `AgentActionApproved`, schedules the settle task
 * (`settleDelayMs` later: AGENT_ACTION_SETTLE_DELAY_MS),
 * which survives a crash of this process (the task queue) and is retried with backoff while a
 * quote is still being executed. Checkpointed, at least once; the task's key makes it one job.
 */
export function agentActionProcessReactor(tasks: TaskScheduler, settleDelayMs: number): Reactor {
  return {
    name: 'agent-action-process',
    handles: ['AgentActionSubmitted', 'AgentActionApproved'],
    async react(event: RecordedEvent) {
      const data = event.data as unknown as ApprovedActionData;
      if (event.type === 'AgentActionSubmitted' && data.status !== 'APPROVED') return;
      await tasks.schedule(SETTLE_AGENT_ACTION_TASK, data.actionId, settleDelayMs, {
        subjectId: data.actionId,
        agentId: data.agentId,
        platformId: data.platformId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
      });
    },
  };
}
