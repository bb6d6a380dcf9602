import { Injectable } from '@nestjs/common';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor, uuidv5 } from '../../infra/ids';
import { ClaimCommand } from '../domain/claim/claim.decider';
import { customerStateFromEvents } from '../queries/customer.view';
import { CUSTOMER_KEY_CLAIM_STREAM } from '../streams';

/** A claim whose customer never got created (a crashed request) is taken over after this. */
const ORPHAN_CLAIM_AFTER_MS = 30_000;

/**
 * The customers' unique keys (platformCustomerId per platform, UMA address), one claim stream
 * per key. Used by CreateCustomer, UpdateCustomer, DeleteCustomer and ReleaseCustomerKeys.
 */
@Injectable()
export class CustomerKeyClaims {
  constructor(
    private readonly commands: CommandStore,
    private readonly events: EventStoreService,
  ) {}

  /**
   * Claims `key` for the customer, or throws `code` when an active customer holds it. A holder
   * that never got created, was deleted or moved away is taken over (see `holderStillCounts`).
   */
  async claim(key: string, code: string, message: string, platformId: string, customerId: string, now: string): Promise<void> {
    const taken = () => new DomainError(code, message);
    try {
      await this.commands.handle(CUSTOMER_KEY_CLAIM_STREAM, claimStreamName(key), async (state): Promise<ClaimCommand> => {
        let takeOverFrom: string | null = null;
        if (state.status === 'held' && state.customerId !== customerId) {
          if (await this.holderStillCounts(state.customerId, state.claimedAt, now, key)) throw taken();
          takeOverFrom = state.customerId;
        }
        return { type: 'ClaimKey', key, platformId, customerId, takeOverFrom, conflictCode: code, now };
      });
    } catch (error) {
      // Every attempt lost a race: other requests keep claiming this key, so it is taken.
      if (error instanceof DomainError && error.code === 'CONFLICT') throw taken();
      throw error;
    }
  }

  /** Frees `key` if the customer holds it (a no-op otherwise). */
  async release(key: string, platformId: string, customerId: string, now: string): Promise<void> {
    await this.commands.handle(CUSTOMER_KEY_CLAIM_STREAM, claimStreamName(key), { type: 'ReleaseKey', key, platformId, customerId, now });
  }

  /** Frees a deleted customer's unique keys (idempotent: the lifecycle reactor runs it again). */
  async releaseCustomerKeys(platformId: string, customerId: string, platformCustomerId: string, umaAddress: string): Promise<void> {
    const now = new Date().toISOString();
    await this.release(platformCustomerIdKey(platformId, platformCustomerId), platformId, customerId, now);
    await this.release(umaAddressKey(umaAddress), platformId, customerId, now);
  }

  /**
   * A held key blocks a new customer while its holder is active and still uses it (an UMA
   * address the holder moved away from no longer counts), or while the holder's creation or
   * move may still be in flight (claimed recently, not appended yet).
   */
  private async holderStillCounts(holderId: string, claimedAt: string, now: string, key: string): Promise<boolean> {
    const recent = Date.parse(now) - Date.parse(claimedAt) < ORPHAN_CLAIM_AFTER_MS;
    const holderEvents = await this.events.readStream(streamNameFor(holderId));
    if (holderEvents.length === 0) return recent;
    const holder = customerStateFromEvents(holderEvents);
    if (holder.status !== 'active') return false;
    return !key.startsWith('umaAddress:') || umaAddressKey(holder.umaAddress) === key || recent;
  }
}

export function claimStreamName(key: string): string {
  return `customerClaim-${uuidv5(`customer-claim:${key}`)}`;
}

export function platformCustomerIdKey(platformId: string, platformCustomerId: string): string {
  return `platformCustomerId:${platformId}:${platformCustomerId}`;
}

export function umaAddressKey(umaAddress: string): string {
  return `umaAddress:${umaAddress.toLowerCase()}`;
}
