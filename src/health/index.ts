/**
 * The health context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { HealthModule } from './health.module';
// The console's operations page shows the same report.
export { HealthController } from './health.controller';
export type { HealthReport } from './health.controller';
