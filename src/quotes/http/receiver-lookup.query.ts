import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { QueryReader } from '../../infra/http/query-params';
import { parseId } from '../../infra/ids';
import { parseUmaAddress } from '../../sandbox';
import type { LookupSender } from '../commands/look-up-receiver';

const UMA_FORMAT = { format: 'uma-address' };

/**
 * The sender of a receiver lookup: `customerId` and/or `senderUmaAddress`, at least one. Lookups
 * are not lists: `limit` and `cursor` are unknown parameters here too.
 */
export function readLookupSender(reader: QueryReader, query: Record<string, unknown>): LookupSender {
  for (const name of ['limit', 'cursor']) {
    if (name in query) reader.errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
  }
  const customerId = reader.id('customerId', 'Customer') ?? null;
  const senderUmaAddress = reader.string('senderUmaAddress', 320) ?? null;
  if (senderUmaAddress !== null && !parseUmaAddress(senderUmaAddress)) {
    reader.errors.push({ field: 'senderUmaAddress', constraint: UMA_FORMAT, message: 'senderUmaAddress must look like $user@domain.com' });
  }
  if (query.customerId === undefined && query.senderUmaAddress === undefined) {
    const message = 'Give customerId or senderUmaAddress: who sends';
    reader.errors.push({ field: 'customerId', constraint: {}, message }, { field: 'senderUmaAddress', constraint: {}, message });
  }
  return { customerId, senderUmaAddress };
}

export function checkReceiverUmaAddress(reader: QueryReader, address: string): void {
  if (!parseUmaAddress(address)) reader.errors.push({ field: 'receiverUmaAddress', constraint: UMA_FORMAT, message: 'receiverUmaAddress must look like $user@domain.com' });
}

export function checkExternalAccountId(reader: QueryReader, accountId: string): void {
  if (!parseId('ExternalAccount', accountId)) {
    reader.errors.push({ field: 'accountId', constraint: { format: 'ExternalAccount-id' }, message: 'accountId must be an ExternalAccount:<uuid> id' });
  }
}

/**
 * One 400 listing every bad path and query field: INVALID_UMA_ADDRESS when only UMA addresses are
 * malformed (as POST /quotes answers a malformed address), INVALID_INPUT otherwise.
 */
export function throwIfBadLookup(reader: QueryReader): void {
  const errors: FieldError[] = reader.errors;
  if (errors.length === 0) return;
  if (errors.every((error) => error.constraint.format === UMA_FORMAT.format)) {
    throw new ValidationError(errors, 'INVALID_UMA_ADDRESS', 'UMA addresses must look like $user@domain.com');
  }
  throw new ValidationError(errors);
}
