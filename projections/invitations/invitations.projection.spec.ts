import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { invitationsProjection } from './invitations.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const UUID = '0199a000-0000-7000-8000-0000000000e1';
const CODE = '0199a0000000700080000000000000e1';
const ref = { invitationId: `Invitation:${UUID}`, platformId: PLATFORM, code: CODE };
const stream = `invitation-${UUID}`;
const created = {
  stream,
  type: 'InvitationCreated',
  data: {
    ...ref,
    inviterUma: '$alice@pay.example.com',
    inviterCustomerId: 'Customer:0199a000-0000-7000-8000-000000000001',
    url: `https://pay.example.com/i/${CODE}`,
    firstName: null,
    amountToSend: { amount: 2500, currency: 'USD' },
    expiresAt: null,
    createdAt: '2025-10-13T12:00:00.000Z',
  },
};
const claimed = { stream, type: 'InvitationClaimed', data: { ...ref, inviteeUma: '$bob@other.example.com', claimedAt: '2025-10-13T12:05:00.000Z' } };
const cancelled = { stream, type: 'InvitationCancelled', data: { ...ref, cancelledAt: '2025-10-13T12:06:00.000Z' } };
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

describe('invitations projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(invitationsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created invitation is one PENDING row keyed by its code: the read model record and its GET view', async () => {
    await spec.given([created]);
    const rows = await spec.rows('SELECT code, invitation_id, platform_id, status, record::json AS record, view::json AS view, created_at FROM invitations');
    const { createdAt } = created.data;
    expect(rows).toEqual([
      {
        code: CODE,
        invitation_id: `Invitation:${UUID}`,
        platform_id: PLATFORM,
        status: 'PENDING',
        record: { ...created.data, status: 'PENDING', inviteeUma: null, claimedAt: null, cancelledAt: null, updatedAt: createdAt },
        view: {
          code: CODE, createdAt, claimedAt: null, url: created.data.url, expiresAt: null, inviterUma: '$alice@pay.example.com',
          inviteeUma: null, status: 'PENDING', firstName: null, amountToSend: { amount: 2500, currency: USD },
        },
        created_at: new Date(createdAt),
      },
    ]);
  });

  it('a claim records the invitee and when; the view shows CLAIMED', async () => {
    await spec.given([created, claimed]);
    const rows = await spec.rows('SELECT status, view::json AS view, updated_at FROM invitations');
    expect(rows).toEqual([
      {
        status: 'CLAIMED',
        view: expect.objectContaining({ status: 'CLAIMED', inviteeUma: '$bob@other.example.com', claimedAt: '2025-10-13T12:05:00.000Z' }),
        updated_at: new Date('2025-10-13T12:05:00.000Z'),
      },
    ]);
  });

  it('a cancellation shows CANCELLED; an event for an invitation never created leaves no row', async () => {
    await spec.given([created, cancelled]);
    expect(await spec.rows('SELECT status, record::json ->> \'cancelledAt\' AS cancelled_at FROM invitations')).toEqual([
      { status: 'CANCELLED', cancelled_at: '2025-10-13T12:06:00.000Z' },
    ]);
    const other = await projectionSpec(invitationsProjection);
    try {
      await other.given([claimed]);
      expect(await other.rows('SELECT code FROM invitations')).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
