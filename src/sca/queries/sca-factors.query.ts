import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../infra/postgres/pool';
import { ScaFactorView } from './sca-factor.view';

/** Read side of SCA factors (the `sca-factors` projection). */
@Injectable()
export class ScaFactorsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The customer's passkey factors; an enrollment left unconfirmed past its expiry is not shown. */
  async listForCustomer(platformId: string, customerId: string, now = new Date()): Promise<ScaFactorView[]> {
    const result = await this.pool.query<{ view: string }>(
      `SELECT view FROM sca_factors
        WHERE platform_id = $1 AND customer_id = $2 AND (expires_at IS NULL OR expires_at > $3)
        ORDER BY factor_id`,
      [platformId, customerId, now.toISOString()],
    );
    return result.rows.map((row) => JSON.parse(row.view) as ScaFactorView);
  }

  async findById(platformId: string, factorId: string): Promise<ScaFactorView | null> {
    const result = await this.pool.query<{ view: string }>(`SELECT view FROM sca_factors WHERE platform_id = $1 AND factor_id = $2`, [platformId, factorId]);
    return result.rows[0] ? (JSON.parse(result.rows[0].view) as ScaFactorView) : null;
  }
}
