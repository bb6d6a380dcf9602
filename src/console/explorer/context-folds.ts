import { TRANSFER_TRANSACTION_REDUCERS, externalAccountDecider, externalAccountView, foldTransactionRow, internalAccountViewFromEvents, transactionOnWire } from '../../accounts';
import { AGENT_STREAM, AgentRecord, agentView } from '../../agents';
import { CARD_TRANSACTION_REDUCERS, CardTransactionRow, cardViewFromEvents, cardWire } from '../../cards';
import { BULK_IMPORT_STREAM, customerViewFromEvents, openCustomerView } from '../../customers';
import { invitationViewFromEvents } from '../../invitations';
import { LOOKUP_STREAM, QUOTE_TRANSACTION_REDUCERS, quoteViewFromEvents } from '../../quotes';
import { SCA_FACTOR_RESET_STREAM } from '../../sca';
import { WALLET_REQUEST_STREAM, WALLET_SESSION_STREAM } from '../../wallet-auth';
import { INCOMING_PAYMENT_TRANSACTION_REDUCERS } from '../../receiving';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { EvolvingDecider, ResourceFold, ResourceFolds, foldWithDecider } from './resource-folds';

/**
 * A payment's transaction folds with every kind's reducers (a stream holds one kind's events):
 * the transfers', the quotes' (a quote's transaction lives in the quote's stream) and the
 * incoming payments', as the `transactions` read model does.
 */
const PAYMENT_REDUCERS = { ...TRANSFER_TRANSACTION_REDUCERS, ...QUOTE_TRANSACTION_REDUCERS, ...INCOMING_PAYMENT_TRANSACTION_REDUCERS };

type EventLike = Array<{ type: string; data: Record<string, unknown> }>;

/** The public folds of the contexts, by resource type; the customer's is opened as GET shows it. */
export function contextViewFolds(personalData: PersonalDataKeys): Record<string, ResourceFold> {
  return {
    Customer: async (events) => {
      const view = customerViewFromEvents(events);
      return view && openCustomerView(view, personalData);
    },
    InternalAccount: (events) => internalAccountViewFromEvents(events),
    ExternalAccount: (events) => {
      const state = foldWithDecider(externalAccountDecider, events) as Parameters<typeof externalAccountView>[0] & { status: string };
      return state.status === 'active' ? externalAccountView(state) : null;
    },
    Quote: (events) => quoteViewFromEvents(events),
    Transaction: (events, { platformId }) => {
      const row = foldTransactionRow(PAYMENT_REDUCERS, events as EventLike);
      return row?.visible ? transactionOnWire(row.view, platformId) : null;
    },
    CardTransaction: (events) => {
      let row: CardTransactionRow | null = null;
      for (const event of events) row = CARD_TRANSACTION_REDUCERS[event.type]?.(row, event) ?? row;
      return row?.view ?? null;
    },
    Card: (events) => {
      const view = cardViewFromEvents(events);
      return view && cardWire(view);
    },
    Agent: (events) => {
      const state = foldWithDecider(AGENT_STREAM.decider, events) as { status: string };
      // Usage counters read at the time of the last event (a past day's read as zero later).
      const at = events.length > 0 && events[events.length - 1].recordedAt ? new Date(events[events.length - 1].recordedAt!) : new Date();
      return state.status === 'active' ? agentView(state as unknown as AgentRecord, at) : null;
    },
    Invitation: (events) => invitationViewFromEvents(events),
  };
}

/** Stream categories of resources without a view fold: the console shows their decider's state. */
export const CONTEXT_DECIDERS: Record<string, EvolvingDecider> = {
  job: BULK_IMPORT_STREAM.decider,
  lookupRequest: LOOKUP_STREAM.decider,
  request: WALLET_REQUEST_STREAM.decider,
  scaFactorReset: SCA_FACTOR_RESET_STREAM.decider,
  session: WALLET_SESSION_STREAM.decider,
};

export function contextFolds(personalData: PersonalDataKeys): ResourceFolds {
  return new ResourceFolds(contextViewFolds(personalData), CONTEXT_DECIDERS);
}
