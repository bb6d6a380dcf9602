/**
 * `npm run webhooks:status`: the webhook delivery queues (waiting, active, delayed, failed jobs,
 * summed and per platform) and the deliveries by status. Uses DATABASE_URL / REDIS_URL /
 * QUEUE_PREFIX like the service, or the local servers `npm start` runs under DATA_DIR.
 */
import { Pool } from 'pg';
import { resolveInfrastructure } from '../src/infra/runtime/infrastructure';
import { DeliveryQueues } from '../src/webhooks/delivery/delivery-queues';
import { DeliveryStore } from '../src/webhooks/delivery/delivery-store';

async function main(): Promise<void> {
  const infrastructure = await resolveInfrastructure(process.env, { dataRoot: process.env.DATA_DIR || '.data' });
  const queues = new DeliveryQueues(infrastructure.redisUrl, process.env.QUEUE_PREFIX || 'payments');
  const pool = new Pool({ connectionString: infrastructure.databaseUrl, max: 2 });
  try {
    const { total, byPlatform } = await queues.counts();
    let deliveries: Record<string, number> | string;
    try {
      deliveries = await new DeliveryStore(pool).statusCounts();
    } catch (error) {
      deliveries = `unavailable: ${error instanceof Error ? error.message : String(error)}`;
    }
    const busiest = Object.entries(byPlatform)
      .filter(([, counts]) => counts.waiting + counts.active + counts.delayed + counts.failed > 0)
      .sort(([, a], [, b]) => b.waiting + b.delayed - (a.waiting + a.delayed));
    process.stdout.write(
      JSON.stringify({ queues: total, platformsWithJobs: Object.fromEntries(busiest), deliveriesByStatus: deliveries }, null, 2) + '\n',
    );
  } finally {
    await queues.close();
    await pool.end();
    await infrastructure.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`webhooks:status failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
