/**
 * The sca context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { lockedAsConflict, scaNotRequired } from './domain/sca.errors';
export { ScaAuthorizationDto } from './http/sca.dto';
export type { ScaChallengeView } from './queries/sca-challenge.view';
export { activeFactorView, pendingFactorView } from './queries/sca-factor.view';
export type { ScaFactorView } from './queries/sca-factor.view';
export { SCA_NOT_COMPLETED, ScaChallenges, sequenceIdOfFirstChallenge } from './sca-challenges.service';
export type { ChallengeFactor, SequencePlan } from './sca-challenges.service';
export { ScaCustomers } from './sca-customers';
export type { ProofFields } from './sca-proofs';
export { sendChallengeSteps } from './sca-steps';
export { ScaSubjectHooks } from './sca-subject-hooks';
export { ScaModule } from './sca.module';
// The console's time travel folds a factor reset's stream with its decider.
export { SCA_FACTOR_RESET_STREAM } from './streams';
