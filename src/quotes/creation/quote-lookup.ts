import { Injectable } from '@nestjs/common';
import { CommandStore } from '../../infra/commands/command-store';
import { parseId, streamNameFor } from '../../infra/ids';
import { LookupDestination, assertLookupUsable, lookupDecider } from '../domain/lookup/lookup.decider';
import { LOOKUP_STREAM } from '../streams';
import { QuoteRequest } from './quote-request';

/**
 * The receiver lookup a quote names (`lookupId`): read from its stream only when one is named, so
 * quotes without one cost nothing more. The rule (same platform, not expired, same destination)
 * is the lookup domain's; every refusal is 400 LOOKUP_REQUEST_FAILED.
 */
@Injectable()
export class QuoteLookup {
  constructor(private readonly commands: CommandStore) {}

  async assertUsable(platformId: string, lookupId: string, destination: QuoteRequest['destination'], now: string): Promise<void> {
    // An id that cannot name a lookup names none: no read.
    const state = parseId('LookupRequest', lookupId) ? (await this.commands.load(LOOKUP_STREAM, streamNameFor(lookupId))).state : lookupDecider.initialState();
    assertLookupUsable(state, { lookupId, platformId, destination: lookupDestinationOf(destination), now });
  }
}

function lookupDestinationOf(destination: QuoteRequest['destination']): LookupDestination {
  return destination.destinationType === 'UMA_ADDRESS'
    ? { destinationType: 'UMA_ADDRESS', umaAddress: destination.umaAddress }
    : { destinationType: 'ACCOUNT', accountId: destination.accountId };
}
