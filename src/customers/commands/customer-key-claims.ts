import { Injectable } from '@nestjs/common';
import { CommandStore, DecidedAppend } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor, uuidv5 } from '../../infra/ids';
import { ClaimCommand, ClaimState } from '../domain/claim/claim.decider';
import { customerStateFromEvents } from '../queries/customer.view';
import { CUSTOMER_KEY_CLAIM_STREAM } from '../streams';

/** A claim whose customer never got created (a crashed request) is taken over after this. */
const ORPHAN_CLAIM_AFTER_MS = 30_000;

/** A unique key to claim, and the refusal when an active customer holds it. */
export interface KeyClaim {
  key: string;
  code: string;
  message: string;
}

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
    try {
      await this.commands.handle(CUSTOMER_KEY_CLAIM_STREAM, claimStreamName(key), (state) => this.claimCommand(state, { key, code, message }, platformId, customerId, now));
    } catch (error) {
      // Every attempt lost a race: other requests keep claiming this key, so it is taken.
      if (error instanceof DomainError && error.code === 'CONFLICT') throw new DomainError(code, message);
      throw error;
    }
  }

  /**
   * The claims decided on the claim streams as they are now, not appended: the caller commits
   * them with its own events (CreateCustomer: keys and customer in one commit) and decides again
   * when a claim stream moved meanwhile. Throws a claim's code when an active customer holds it;
   * a key the customer holds already needs no append.
   */
  async decideClaims(claims: KeyClaim[], platformId: string, customerId: string, now: string): Promise<DecidedAppend[]> {
    const settled = await Promise.allSettled(
      claims.map(async (claim) => {
        const streamName = claimStreamName(claim.key);
        const { state, revision } = await this.commands.load(CUSTOMER_KEY_CLAIM_STREAM, streamName);
        const events = CUSTOMER_KEY_CLAIM_STREAM.decider.decide(await this.claimCommand(state, claim, platformId, customerId, now), state);
        return { type: CUSTOMER_KEY_CLAIM_STREAM, state, streamName, events, expectedRevision: revision };
      }),
    );
    // Read at once, refused in the claims' order: with both keys taken, the first one's code answers.
    const refused = settled.find((outcome) => outcome.status === 'rejected');
    if (refused) throw refused.reason;
    return settled.flatMap((outcome) => (outcome.status === 'fulfilled' && outcome.value.events.length > 0 ? [outcome.value] : []));
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

  /** Claims the key, taking it over from a holder that no longer counts; throws the claim's code otherwise. */
  private async claimCommand(state: ClaimState, claim: KeyClaim, platformId: string, customerId: string, now: string): Promise<ClaimCommand> {
    let takeOverFrom: string | null = null;
    if (state.status === 'held' && state.customerId !== customerId) {
      if (await this.holderStillCounts(state.customerId, state.claimedAt, now, claim.key)) throw new DomainError(claim.code, claim.message);
      takeOverFrom = state.customerId;
    }
    return { type: 'ClaimKey', key: claim.key, platformId, customerId, takeOverFrom, conflictCode: claim.code, now };
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
