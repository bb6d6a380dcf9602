import { Injectable } from '@nestjs/common';
import { ScaChallengeIssued, ScaSequenceCompleted, ScaSequenceFailed } from './domain/sequence/sequence.events';
import { ScaChallengeView } from './queries/sca-challenge.view';

/**
 * What the operation waiting for a challenge sequence does when it advances. The SCA context
 * does not import the contexts it serves: they register here by subject type (`Quote`), and the
 * `sca-challenges` reactor calls them, at least once per event, so every handler is idempotent.
 * The request that authorizes usually does the same work first; the reactor finishes it after a
 * crash and applies the expiry task's outcome.
 */
export interface ScaSubjectHandlers {
  /** A challenge after the first was issued (the subject shows `challenge` from now on). */
  onChallengeIssued?(data: ScaChallengeIssued['data'], challenge: ScaChallengeView): Promise<void>;
  /** Every challenge was satisfied: release the operation. */
  onCompleted?(data: ScaSequenceCompleted['data']): Promise<void>;
  /** A challenge expired unsatisfied: fail the operation (`data.reason`). */
  onFailed?(data: ScaSequenceFailed['data']): Promise<void>;
}

@Injectable()
export class ScaSubjectHooks {
  private readonly handlers = new Map<string, ScaSubjectHandlers>();

  register(subjectType: string, handlers: ScaSubjectHandlers): void {
    if (this.handlers.has(subjectType)) return;
    this.handlers.set(subjectType, handlers);
  }

  for(subjectType: string): ScaSubjectHandlers {
    return this.handlers.get(subjectType) ?? {};
  }
}
