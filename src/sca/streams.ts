import { streamType } from '../infra/commands/stream-type';
import { profileDecider } from './domain/profile/profile.decider';
import { resetDecider } from './domain/reset/reset.decider';
import { sequenceDecider } from './domain/sequence/sequence.decider';

/** The sca context's streams, as the command store handles them (src/infra/commands). */
export const SCA_SEQUENCE_STREAM = streamType({
  name: 'SCA challenge sequence',
  decider: sequenceDecider,
});

export const SCA_PROFILE_STREAM = streamType({
  name: 'SCA profile',
  decider: profileDecider,
});

export const SCA_FACTOR_RESET_STREAM = streamType({
  name: 'SCA factor reset',
  decider: resetDecider,
});
