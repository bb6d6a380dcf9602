import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';

/**
 * A receiver lookup (`GET /receiver/uma/{address}`, `GET /receiver/external-account/{id}`): what
 * the receiver takes and what the platform may send it, estimated on the current rates, for one
 * sender and one destination, until `expiresAt`. One stream per lookup (`lookupRequest-<uuid>`);
 * `POST /quotes` with its `lookupId` must pay that destination before it expires.
 */
export type LookupDestination =
  | { destinationType: 'UMA_ADDRESS'; umaAddress: string }
  | { destinationType: 'ACCOUNT'; accountId: string };

export type LookupCurrency = {
  currency: string;
  /** Sending major units per receiving major unit, as quotes show `exchangeRate`. */
  estimatedExchangeRate: number;
  /** Receivable amounts, minor units of `currency`. */
  min: number;
  max: number;
};

export type PayerDataField = {
  name: string;
  mandatory: boolean;
};

export type ReceiverLookup = {
  lookupId: string;
  platformId: string;
  /** The sender the estimate was made for. */
  customerId: string;
  senderUmaAddress: string | null;
  destination: LookupDestination;
  sendingCurrency: string;
  supportedCurrencies: LookupCurrency[];
  requiredPayerDataFields: PayerDataField[];
  rateSnapshotId: string;
  lookedUpAt: string;
  expiresAt: string;
};

export type LookupEvent = { type: 'ReceiverLookedUp'; data: ReceiverLookup };

export type LookupState = { status: 'none' } | { status: 'recorded'; lookup: ReceiverLookup };

export interface RecordReceiverLookup {
  type: 'RecordReceiverLookup';
  lookup: ReceiverLookup;
}

export const lookupDecider: Decider<RecordReceiverLookup, LookupState, LookupEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    // Ids are new per lookup: a second decision on the same stream is the same request retried.
    if (state.status === 'recorded') return [];
    return [{ type: 'ReceiverLookedUp', data: command.lookup }];
  },

  evolve(_state, event) {
    return { status: 'recorded', lookup: event.data };
  },
};

/**
 * Whether a quote paying `destination` at `now` may use the lookup. Another platform's lookup is
 * as unknown as a missing one. POST /quotes declares no 404, so every refusal is 400
 * LOOKUP_REQUEST_FAILED; `details.reason` says which (none for an unknown lookup).
 */
export function assertLookupUsable(state: LookupState, use: { lookupId: string; platformId: string; destination: LookupDestination; now: string }): ReceiverLookup {
  if (state.status !== 'recorded' || state.lookup.platformId !== use.platformId) {
    throw new DomainError('LOOKUP_REQUEST_FAILED', `Lookup request ${use.lookupId} was not found; quote without lookupId or with a current lookup`, {
      lookupId: use.lookupId,
    });
  }
  const { lookup } = state;
  if (Date.parse(use.now) >= Date.parse(lookup.expiresAt)) {
    throw new DomainError('LOOKUP_REQUEST_FAILED', `Lookup request ${use.lookupId} expired at ${lookup.expiresAt}; look the receiver up again`, {
      lookupId: use.lookupId,
      reason: 'LOOKUP_REQUEST_EXPIRED',
      expiresAt: lookup.expiresAt,
    });
  }
  if (!sameDestination(lookup.destination, use.destination)) {
    throw new DomainError('LOOKUP_REQUEST_FAILED', `Lookup request ${use.lookupId} was made for another destination`, {
      lookupId: use.lookupId,
      reason: 'DESTINATION_MISMATCH',
      lookupDestination: lookup.destination,
    });
  }
  return lookup;
}

/** UMA addresses compare case-insensitively (they are stored in canonical lowercase form). */
function sameDestination(looked: LookupDestination, quoted: LookupDestination): boolean {
  if (looked.destinationType === 'UMA_ADDRESS') {
    return quoted.destinationType === 'UMA_ADDRESS' && quoted.umaAddress.toLowerCase() === looked.umaAddress;
  }
  return quoted.destinationType === 'ACCOUNT' && quoted.accountId === looked.accountId;
}
