/**
 * Invitation events (issue 23 part 5, docs/invitations.md). Every payload carries the invitation
 * id and the platform id (tenancy, audit) and the code; ISO date strings, integer minor units.
 * Never rename an event type: add a new one.
 */

/** What the service records of an invitation's state; EXPIRED is derived from `expiresAt` at read time. */
export const RECORDED_INVITATION_STATUSES = ['PENDING', 'CLAIMED', 'CANCELLED'] as const;
export type RecordedInvitationStatus = (typeof RECORDED_INVITATION_STATUSES)[number];

/** The statuses an invitation shows (the reference's UmaInvitation `status`). */
export type InvitationStatus = RecordedInvitationStatus | 'EXPIRED';

type InvitationRef = {
  invitationId: string;
  platformId: string;
  code: string;
};

export interface InvitationCreated {
  type: 'InvitationCreated';
  data: InvitationRef & {
    /** Canonical (lowercased) UMA address of the inviting customer. */
    inviterUma: string;
    inviterCustomerId: string;
    /** Where the invitation is claimed, fixed at creation (a later umaDomain change does not move it). */
    url: string;
    firstName: string | null;
    /** Minor units of `currency` (the inviter's sending currency); display only. */
    amountToSend: { amount: number; currency: string } | null;
    expiresAt: string | null;
    createdAt: string;
  };
}

export interface InvitationClaimed {
  type: 'InvitationClaimed';
  data: InvitationRef & { inviteeUma: string; claimedAt: string };
}

export interface InvitationCancelled {
  type: 'InvitationCancelled';
  data: InvitationRef & { cancelledAt: string };
}

export type InvitationEvent = InvitationCreated | InvitationClaimed | InvitationCancelled;

export const INVITATION_EVENT_TYPES: InvitationEvent['type'][] = ['InvitationCreated', 'InvitationClaimed', 'InvitationCancelled'];
