import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor } from '../../infra/ids';
import { claimStreamName, platformCustomerIdKey } from '../commands/customer-key-claims';
import { ClaimState, claimDecider } from '../domain/claim/claim.decider';
import { customerStateFromEvents } from '../queries/customer.view';

/** The holder of a row's platformCustomerId is still being created (claimed, not appended): try the row later. */
export class CustomerCreationInFlight extends Error {}

/**
 * After a refused creation (the row's platformCustomerId or UMA address taken): the customer a
 * previous run of this job created for the row, or null when the keys belong to someone else.
 * Ours when the platformCustomerId's holder was created since the job was accepted with the
 * row's UMA address; the file holds no repeated key (repeats are refused first), so no other
 * row of the job can have created it.
 */
export async function customerCreatedForRow(
  events: EventStoreService,
  row: { platformId: string; platformCustomerId: string; umaAddress: string; acceptedAt: string },
): Promise<string | null> {
  const claimEvents = await events.readStream(claimStreamName(platformCustomerIdKey(row.platformId, row.platformCustomerId)));
  let claim: ClaimState = claimDecider.initialState();
  for (const event of claimEvents) claim = claimDecider.evolve(claim, event as never);
  if (claim.status !== 'held') return null;
  const holder = customerStateFromEvents(await events.readStream(streamNameFor(claim.customerId)));
  if (holder.status === 'none') {
    // A run cut short between the claim and the customer: the claim is taken over once orphaned.
    if (Date.parse(claim.claimedAt) >= Date.parse(row.acceptedAt)) throw new CustomerCreationInFlight(`${claim.customerId} is claimed, not created yet`);
    return null;
  }
  const ours =
    holder.status === 'active' &&
    holder.platformId === row.platformId &&
    holder.umaAddress.toLowerCase() === row.umaAddress.toLowerCase() &&
    Date.parse(holder.createdAt) >= Date.parse(row.acceptedAt);
  return ours ? holder.customerId : null;
}
