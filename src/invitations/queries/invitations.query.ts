import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL, lookup } from '../../infra/postgres/pool';
import { InvitationView, invitationViewAt } from './invitation.view';

/**
 * Read side of invitations (the `invitations` projection). `findByCode` answers null for an
 * unknown code and for another platform's invitation alike; a PENDING invitation past its
 * `expiresAt` shows EXPIRED.
 */
@Injectable()
export class InvitationsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findByCode(platformId: string, code: string, now: string = new Date().toISOString()): Promise<InvitationView | null> {
    const result = await lookup(this.pool, `SELECT view FROM invitations WHERE platform_id = $1 AND code = $2`, [platformId, code]);
    const row = result.rows[0];
    return row ? invitationViewAt(JSON.parse(row.view) as InvitationView, now) : null;
  }
}
