import { Pool } from 'pg';
import { destroySealedSecrets, sealedSecretExists } from '../infra/crypto/key-vault';
import { streamNameFor } from '../infra/ids';
import { currentPersonalDataKeyId } from './domain/customer/personal-data-fields';
import { customerNotFound } from './customers.errors';
import { CommandStore } from '../infra/commands/command-store';
import { CUSTOMER_STREAM } from './streams';

export interface PersonalDataErasure {
  platformId: string;
  customerId: string;
  /** The operator, recorded in the event and as the event's actor (`operator:<name>`). */
  erasedBy: string;
  reason: string;
  now?: string;
}

export interface PersonalDataErasureResult {
  customerId: string;
  /** ERASED: this run recorded the erasure; ALREADY_ERASED: nothing was sealed since the last one. */
  status: 'ERASED' | 'ALREADY_ERASED';
  /** Every data key the customer ever had erased (destroyed again, which is a no-op if gone). */
  erasedKeyIds: string[];
}

/**
 * Crypto-shredding of a customer's secret personal fields (operators: `npm run customers:erase`).
 * Appends `CustomerPersonalDataErased` (who, when, why, which key), then deletes the data key from
 * the vault, which makes every value sealed with it unreadable in every event and projection at
 * once. Idempotent: a crash between the two steps is finished by running it again, and a repeated
 * erasure with nothing sealed since appends nothing. Needs no master key.
 */
export async function erasePersonalData(commands: CommandStore, pool: Pool, erasure: PersonalDataErasure): Promise<PersonalDataErasureResult> {
  const stream = streamNameFor(erasure.customerId);
  const loaded = await commands.load(CUSTOMER_STREAM, stream);
  if (loaded.state.status === 'none' || loaded.state.platformId !== erasure.platformId) throw customerNotFound();
  const currentKeyExists = await sealedSecretExists(pool, currentPersonalDataKeyId(loaded.state));
  const now = erasure.now ?? new Date().toISOString();
  const result = await commands.handle(CUSTOMER_STREAM, stream, { type: 'ErasePersonalData', currentKeyExists, erasedBy: erasure.erasedBy, reason: erasure.reason, now },
    { metadata: { platformId: erasure.platformId, actor: `operator:${erasure.erasedBy}` } },
  );
  const state = result.state;
  const erasedKeyIds = state.status === 'none' ? [] : (state.erasedPersonalDataKeyIds ?? []);
  await destroySealedSecrets(pool, erasedKeyIds);
  return { customerId: erasure.customerId, status: result.events.length > 0 ? 'ERASED' : 'ALREADY_ERASED', erasedKeyIds };
}
