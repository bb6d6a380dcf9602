/**
 * The invitations context's public entry: what other contexts, the read models and the app module
 * may use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { INVITATION_EVENT_TYPES } from './domain/invitation/invitation.events';
export type { InvitationEvent, RecordedInvitationStatus } from './domain/invitation/invitation.events';
export { InvitationsModule } from './invitations.module';
export { invitationView, invitationViewFromEvents } from './queries/invitation.view';
