import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { ScaChallengeIssued, ScaSequenceCompleted, ScaSequenceFailed } from '../domain/sequence/sequence.events';
import { scaChallengeView } from '../queries/sca-challenge.view';
import { ScaSubjectHooks } from '../sca-subject-hooks';

export const EXPIRE_SCA_CHALLENGE_TASK = 'sca.challenge.expire';

/**
 * The process manager of challenge sequences (checkpointed, at least once):
 * - `ScaChallengeIssued`: schedule the expiry task at `expiresAt` (job id = challenge id: once),
 *   and tell the subject about a challenge after the first;
 * - `ScaSequenceCompleted`, `ScaSequenceFailed`: tell the subject (release it, or fail it).
 */
export function scaChallengesReactor(tasks: TaskScheduler, hooks: ScaSubjectHooks): Reactor {
  return {
    name: 'sca-challenges',
    handles: ['ScaChallengeIssued', 'ScaSequenceCompleted', 'ScaSequenceFailed'],
    async react(event) {
      switch (event.type) {
        case 'ScaChallengeIssued': {
          const data = event.data as ScaChallengeIssued['data'];
          await tasks.schedule(EXPIRE_SCA_CHALLENGE_TASK, data.challengeId, Date.parse(data.expiresAt) - Date.now(), {
            subjectId: data.challengeId,
            platformId: data.platformId,
            correlationId: event.metadata.correlationId,
            causationId: event.id,
            sequenceId: data.sequenceId,
          });
          if (data.step > 0) await hooks.for(data.subject.type).onChallengeIssued?.(data, scaChallengeView({ ...data, challengeId: data.challengeId }));
          return;
        }
        case 'ScaSequenceCompleted': {
          const data = event.data as ScaSequenceCompleted['data'];
          await hooks.for(data.subject.type).onCompleted?.(data);
          return;
        }
        case 'ScaSequenceFailed': {
          const data = event.data as ScaSequenceFailed['data'];
          await hooks.for(data.subject.type).onFailed?.(data);
          return;
        }
      }
    },
  };
}
