import { streamType } from '../infra/commands/stream-type';
import { bulkImportDecider } from './domain/bulk-import/bulk-import.decider';
import { claimDecider } from './domain/claim/claim.decider';
import { customerDecider } from './domain/customer/customer.decider';

/** The customers context's streams, as the command store handles them (src/infra/commands). */
export const CUSTOMER_STREAM = streamType({
  name: 'customer',
  decider: customerDecider,
});

export const CUSTOMER_KEY_CLAIM_STREAM = streamType({
  name: 'customer key claim',
  decider: claimDecider,
  // Claims of one key are contended by design (two customers racing for one email): re-decide longer.
  maxAttempts: 20,
});

/** One stream per bulk import job (`job-<uuid>`), written by its worker only: the state is a few counters. */
export const BULK_IMPORT_STREAM = streamType({
  name: 'bulk import job',
  decider: bulkImportDecider,
  cacheSize: 64,
});
