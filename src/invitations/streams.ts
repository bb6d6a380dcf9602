import { streamType } from '../infra/commands/stream-type';
import { invitationDecider } from './domain/invitation/invitation.decider';

/** The invitations context's streams, as the command store handles them (src/infra/commands). */
export const INVITATION_STREAM = streamType({
  name: 'invitation',
  decider: invitationDecider,
  // A claim racing a cancel re-decides on the fresh state: the second is refused, never 409.
  maxAttempts: 10,
});
