import { Decider } from '../../../infra/domain/decider';
import { invitationAlreadyClaimed, invitationCancelled, invitationExpired, invitationFieldRefused, invitationNotFound } from '../invitations.errors';
import { InvitationCreated, InvitationEvent, RecordedInvitationStatus } from './invitation.events';

/** An invitation as the write side knows it: what creation recorded, plus its claim or cancellation. */
export type ExistingInvitation = InvitationCreated['data'] & {
  status: RecordedInvitationStatus;
  inviteeUma: string | null;
  claimedAt: string | null;
  cancelledAt: string | null;
};

export type InvitationState = { status: 'none' } | ExistingInvitation;

export type InvitationCommand =
  | { type: 'CreateInvitation'; invitation: InvitationCreated['data'] }
  | { type: 'ClaimInvitation'; platformId: string; inviteeUma: string; now: string }
  | { type: 'CancelInvitation'; platformId: string; now: string };

/**
 * One stream per invitation. Claim and cancel both need PENDING, so when they race the command
 * store re-decides the loser on the fresh state and it is refused with the winner's code.
 * Another platform's invitation is one that does not exist (404).
 */
export const invitationDecider: Decider<InvitationCommand, InvitationState, InvitationEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateInvitation') {
      // A retried creation (same id) finds its own invitation: nothing more to record.
      if (state.status !== 'none') return [];
      return [{ type: 'InvitationCreated', data: command.invitation }];
    }
    const invitation = pendingInvitationOf(state, command.platformId, command.now);
    const ref = { invitationId: invitation.invitationId, platformId: invitation.platformId, code: invitation.code };
    if (command.type === 'CancelInvitation') return [{ type: 'InvitationCancelled', data: { ...ref, cancelledAt: command.now } }];
    if (command.inviteeUma === invitation.inviterUma) {
      throw invitationFieldRefused('inviteeUma', 'An invitation cannot be claimed by its inviter', 'SELF_CLAIM');
    }
    return [{ type: 'InvitationClaimed', data: { ...ref, inviteeUma: command.inviteeUma, claimedAt: command.now } }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'InvitationCreated':
        return { ...event.data, status: 'PENDING', inviteeUma: null, claimedAt: null, cancelledAt: null };
      case 'InvitationClaimed':
        if (state.status === 'none') return state;
        return { ...state, status: 'CLAIMED', inviteeUma: event.data.inviteeUma, claimedAt: event.data.claimedAt };
      case 'InvitationCancelled':
        if (state.status === 'none') return state;
        return { ...state, status: 'CANCELLED', cancelledAt: event.data.cancelledAt };
    }
  },
};

/** The platform's invitation if it can still be claimed or cancelled at `now`; the reference's refusal otherwise. */
function pendingInvitationOf(state: InvitationState, platformId: string, now: string): ExistingInvitation {
  if (state.status === 'none' || state.platformId !== platformId) throw invitationNotFound();
  if (state.status === 'CLAIMED') throw invitationAlreadyClaimed(state.claimedAt!);
  if (state.status === 'CANCELLED') throw invitationCancelled(state.cancelledAt!);
  if (isExpiredAt(state.expiresAt, now)) throw invitationExpired(state.expiresAt!);
  return state;
}

/** An invitation expires at `expiresAt` (inclusive); one without never does. */
export function isExpiredAt(expiresAt: string | null, now: string): boolean {
  return expiresAt !== null && Date.parse(now) >= Date.parse(expiresAt);
}
