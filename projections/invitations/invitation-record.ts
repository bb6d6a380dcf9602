import { InvitationEvent, RecordedInvitationStatus } from '../../src/invitations';

/**
 * The `invitations` read model's own state of one invitation: what its GET view shows, folded from
 * the invitation's events (not the write side's state, so either can change without the other).
 */
export interface InvitationRecord {
  status: RecordedInvitationStatus;
  invitationId: string;
  platformId: string;
  code: string;
  inviterUma: string;
  inviterCustomerId: string;
  url: string;
  firstName: string | null;
  amountToSend: { amount: number; currency: string } | null;
  expiresAt: string | null;
  inviteeUma: string | null;
  claimedAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Folds one event into the invitation's record; null while the invitation was never created. */
export function evolveInvitationRecord(record: InvitationRecord | null, event: InvitationEvent): InvitationRecord | null {
  if (event.type === 'InvitationCreated') {
    const { data } = event;
    return { ...data, status: 'PENDING', inviteeUma: null, claimedAt: null, cancelledAt: null, updatedAt: data.createdAt };
  }
  if (record === null) return null;
  switch (event.type) {
    case 'InvitationClaimed':
      return { ...record, status: 'CLAIMED', inviteeUma: event.data.inviteeUma, claimedAt: event.data.claimedAt, updatedAt: event.data.claimedAt };
    case 'InvitationCancelled':
      return { ...record, status: 'CANCELLED', cancelledAt: event.data.cancelledAt, updatedAt: event.data.cancelledAt };
  }
}
