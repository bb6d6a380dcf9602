import { Projection } from '../../src/infra/projections/projection';
import { INVITATION_EVENT_TYPES, InvitationEvent, invitationView } from '../../src/invitations';
import { InvitationRecord, evolveInvitationRecord } from './invitation-record';

/**
 * `invitations`: one row per invitation, keyed by its code, with the read model's record
 * (`record`, invitation-record.ts) and its GET view as recorded (`view`; the query shows a PENDING
 * invitation past `expiresAt` as EXPIRED). Every column comes from the events.
 */
export const invitationsProjection: Projection = {
  name: 'invitations',
  version: 1,
  tables: ['invitations'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('invitations')} (
       code text PRIMARY KEY,
       invitation_id text NOT NULL,
       platform_id text NOT NULL,
       status text NOT NULL,
       record text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
  ],
  handles: INVITATION_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as InvitationEvent;
    const existing = await tx.query<{ record: string }>(`SELECT record FROM ${tx.table('invitations')} WHERE code = $1`, [typed.data.code]);
    const previous: InvitationRecord | null = existing.rows[0] ? JSON.parse(existing.rows[0].record) : null;
    const invitation = evolveInvitationRecord(previous, typed);
    if (invitation === null) return;
    await tx.query(
      `INSERT INTO ${tx.table('invitations')} (code, invitation_id, platform_id, status, record, view, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (code) DO UPDATE SET
         status = EXCLUDED.status, record = EXCLUDED.record, view = EXCLUDED.view, updated_at = EXCLUDED.updated_at`,
      [
        invitation.code,
        invitation.invitationId,
        invitation.platformId,
        invitation.status,
        JSON.stringify(invitation),
        JSON.stringify(invitationView(invitation)),
        invitation.createdAt,
        invitation.updatedAt,
      ],
    );
  },
};
