import { deciderSpec } from '../../../../test/support/decider-spec';
import { invitationCodeOf, invitationIdOf } from './invitation-code';
import { InvitationCommand, invitationDecider } from './invitation.decider';
import { InvitationEvent } from './invitation.events';

const PLATFORM = 'Platform:p';
const UUID = '019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58';
const CODE = '019a4a1918747c6d8e2a4b9f0a3d1c58';
const ref = { invitationId: `Invitation:${UUID}`, platformId: PLATFORM, code: CODE };
const CREATED_AT = '2025-11-03T14:00:00.000Z';
const EXPIRES_AT = '2025-11-10T14:00:00.000Z';
const LATER = '2025-11-04T09:00:00.000Z';
const created: InvitationEvent = {
  type: 'InvitationCreated',
  data: {
    ...ref,
    inviterUma: '$alice@pay.example.com',
    inviterCustomerId: 'Customer:c',
    url: `https://pay.example.com/i/${CODE}`,
    firstName: 'Bob',
    amountToSend: { amount: 2500, currency: 'USD' },
    expiresAt: EXPIRES_AT,
    createdAt: CREATED_AT,
  },
};
const claimed: InvitationEvent = { type: 'InvitationClaimed', data: { ...ref, inviteeUma: '$bob@other.example.com', claimedAt: LATER } };
const cancelled: InvitationEvent = { type: 'InvitationCancelled', data: { ...ref, cancelledAt: LATER } };
const claim = (now = LATER, inviteeUma = '$bob@other.example.com', platformId = PLATFORM): InvitationCommand => ({ type: 'ClaimInvitation', platformId, inviteeUma, now });
const cancel = (now = LATER, platformId = PLATFORM): InvitationCommand => ({ type: 'CancelInvitation', platformId, now });
const spec = deciderSpec(invitationDecider);

describe('invitation decider', () => {
  it('creates a PENDING invitation; the same creation decided again records nothing more', () => {
    spec.given([]).when({ type: 'CreateInvitation', invitation: created.data as never }).then([created]);
    spec.given([created]).when({ type: 'CreateInvitation', invitation: created.data as never }).then([]);
    expect(spec.state([created])).toEqual({ ...created.data, status: 'PENDING', inviteeUma: null, claimedAt: null, cancelledAt: null });
  });

  it('a PENDING invitation is claimed by an UMA address, or cancelled', () => {
    spec.given([created]).when(claim()).then([claimed]);
    spec.given([created]).when(cancel()).then([cancelled]);
    expect(spec.state([created, claimed])).toEqual(expect.objectContaining({ status: 'CLAIMED', inviteeUma: '$bob@other.example.com', claimedAt: LATER }));
  });

  it('claimed: claiming again or cancelling is INVITATION_ALREADY_CLAIMED', () => {
    spec.given([created, claimed]).when(claim()).thenError('INVITATION_ALREADY_CLAIMED', { claimedAt: LATER });
    spec.given([created, claimed]).when(claim(LATER, '$carol@other.example.com')).thenError('INVITATION_ALREADY_CLAIMED');
    spec.given([created, claimed]).when(cancel()).thenError('INVITATION_ALREADY_CLAIMED');
  });

  it('cancelled: claiming or cancelling again is INVITATION_CANCELLED', () => {
    spec.given([created, cancelled]).when(claim()).thenError('INVITATION_CANCELLED', { cancelledAt: LATER });
    spec.given([created, cancelled]).when(cancel()).thenError('INVITATION_CANCELLED');
  });

  it('unknown, or another platform\'s: INVITATION_NOT_FOUND', () => {
    spec.given([]).when(claim()).thenError('INVITATION_NOT_FOUND');
    spec.given([]).when(cancel()).thenError('INVITATION_NOT_FOUND');
    spec.given([created]).when(claim(LATER, '$bob@other.example.com', 'Platform:q')).thenError('INVITATION_NOT_FOUND');
    spec.given([created, claimed]).when(cancel(LATER, 'Platform:q')).thenError('INVITATION_NOT_FOUND');
  });

  it('from expiresAt on, neither claimed nor cancelled: INVALID_INPUT with reason INVITATION_EXPIRED', () => {
    spec.given([created]).when(claim(EXPIRES_AT)).thenError('INVALID_INPUT', { reason: 'INVITATION_EXPIRED', expiresAt: EXPIRES_AT });
    spec.given([created]).when(cancel('2025-12-01T00:00:00.000Z')).thenError('INVALID_INPUT', { reason: 'INVITATION_EXPIRED' });
    const neverExpires = { ...created, data: { ...created.data, expiresAt: null } } as InvitationEvent;
    spec.given([neverExpires]).when(claim('2030-01-01T00:00:00.000Z')).then([{ ...claimed, data: { ...claimed.data, claimedAt: '2030-01-01T00:00:00.000Z' } } as InvitationEvent]);
  });

  it('the inviter cannot claim its own invitation', () => {
    spec.given([created]).when(claim(LATER, '$alice@pay.example.com')).thenError('INVALID_INPUT', {
      reason: 'SELF_CLAIM',
      errors: [{ field: 'inviteeUma', constraint: {}, message: 'An invitation cannot be claimed by its inviter' }],
    });
  });

  it('a code is the id\'s uuid without dashes; any other text names no invitation', () => {
    expect(invitationCodeOf(UUID)).toBe(CODE);
    expect(invitationIdOf(CODE)).toBe(`Invitation:${UUID}`);
    expect(invitationIdOf(CODE.toUpperCase())).toBe(`Invitation:${UUID}`);
    for (const text of ['', '019542f5', `${CODE}0`, UUID, CODE.replace('0', 'g')]) expect(invitationIdOf(text)).toBeNull();
  });
});
