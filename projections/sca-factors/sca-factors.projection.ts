import { Projection } from '../../src/infra/projections/projection';
import { ScaFactorView, activeFactorView, pendingFactorView } from '../../src/sca';

/**
 * `sca_factors`: the customers' SCA passkeys, one row per factor as `GET /sca/factors` lists it.
 * A new enrollment replaces the customer's unconfirmed one; a removed passkey loses its row.
 */
export const scaFactorsProjection: Projection = {
  name: 'sca-factors',
  version: 1,
  tables: ['sca_factors'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('sca_factors')} (
       factor_id text PRIMARY KEY,
       platform_id text NOT NULL,
       customer_id text NOT NULL,
       status text NOT NULL,
       expires_at timestamptz,
       view text NOT NULL
     )`,
    `CREATE INDEX ON ${t('sca_factors')} (platform_id, customer_id)`,
  ],
  handles: ['ScaPasskeyEnrollmentStarted', 'ScaPasskeyEnrolled', 'ScaPasskeyRemoved'],
  async apply(event, tx) {
    const data = event.data as Record<string, any>;
    const table = tx.table('sca_factors');
    if (event.type === 'ScaPasskeyEnrollmentStarted') {
      await tx.query(`DELETE FROM ${table} WHERE platform_id = $1 AND customer_id = $2 AND status = 'PENDING_CONFIRMATION'`, [data.platformId, data.customerId]);
      const view = pendingFactorView({ factorId: data.factorId, customerId: data.customerId, nickname: data.nickname, startedAt: data.startedAt });
      await tx.query(
        `INSERT INTO ${table} (factor_id, platform_id, customer_id, status, expires_at, view) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (factor_id) DO NOTHING`,
        [data.factorId, data.platformId, data.customerId, view.status, data.expiresAt, JSON.stringify(view)],
      );
      return;
    }
    if (event.type === 'ScaPasskeyEnrolled') {
      const row = await tx.query<{ view: string }>(`SELECT view FROM ${table} WHERE factor_id = $1`, [data.factorId]);
      if (!row.rows[0]) return;
      const view = activeFactorView(JSON.parse(row.rows[0].view) as ScaFactorView, { credentialId: data.credentialId, enrolledAt: data.enrolledAt });
      await tx.query(`UPDATE ${table} SET status = $2, expires_at = NULL, view = $3 WHERE factor_id = $1`, [data.factorId, view.status, JSON.stringify(view)]);
      return;
    }
    await tx.query(`DELETE FROM ${table} WHERE factor_id = $1`, [data.factorId]);
  },
};
