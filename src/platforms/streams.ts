import { streamType } from '../infra/commands/stream-type';
import { platformDecider } from './domain/platform/platform.decider';

/** The platforms context's streams, as the command store handles them (src/infra/commands). */
export const PLATFORM_STREAM = streamType({
  name: 'platform',
  decider: platformDecider,
});
