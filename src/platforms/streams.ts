import { streamType } from '../infra/commands/stream-type';
import { platformDecider } from './domain/platform/platform.decider';
import { tokenDecider } from './domain/token/token.decider';

/** The platforms context's streams, as the command store handles them (src/infra/commands). */
export const PLATFORM_STREAM = streamType({
  name: 'platform',
  decider: platformDecider,
});

/** One stream per API token (`token-<uuid>`): its creation and its revocation. */
export const TOKEN_STREAM = streamType({
  name: 'token',
  decider: tokenDecider,
});
