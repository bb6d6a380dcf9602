/**
 * The agent's actions (issue 26 parts 3 and 4, docs/agents.md "Actions and policy", "Approvals"),
 * on the agent's own stream next to its policy and usage: an action and the usage it reserves are
 * one event, decided at the stream's revision, so concurrent actions never spend past a limit.
 * Never rename an event type: add a new one.
 */
type AgentRef = {
  agentId: string;
  platformId: string;
};

export type AgentActionType = 'EXECUTE_QUOTE' | 'TRANSFER_OUT' | 'TRANSFER_IN';
export type AgentActionStatus = 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED' | 'FAILED';

/** What a transfer action runs, as the accounts context's transfer commands take it. */
export interface AgentTransferRequest {
  sourceAccountId: string;
  destinationAccountId: string;
  paymentRail: string | null;
  amount: number;
  currency: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
}

/** What an action asks for; `accountId` is the customer's internal account it moves money from or to. */
export interface AgentActionRequest {
  type: AgentActionType;
  accountId: string;
  /** In minor units of `currency` (a quote's total sending amount, a transfer's amount). */
  amount: number;
  currency: string;
  /** EXECUTE_QUOTE: the quote, and the transaction its execution will be. */
  quoteId: string | null;
  quoteTransactionId: string | null;
  /** TRANSFER_OUT, TRANSFER_IN. */
  transfer: AgentTransferRequest | null;
}

/** An action's share of the usage counters, in minor units of the policy currency of its day. */
export interface UsageReservation {
  amount: number;
  currency: string;
  /** `YYYY-MM-DD` and `YYYY-MM` (UTC) the reservation counts in. */
  day: string;
  month: string;
}

/** Why an action within policy waits for the platform. */
export type ApprovalCause = 'EXECUTION_MODE' | 'APPROVAL_THRESHOLD';

/** The agent created a quote (what `GET /agents/me/quotes/{id}` and execute check). */
export interface AgentQuoteCreated {
  type: 'AgentQuoteCreated';
  data: AgentRef & { quoteId: string; createdAt: string };
}

/**
 * An action within policy, with the usage it reserves: APPROVED (runs at once) or
 * PENDING_APPROVAL (waits for the platform; `approvalCause` says why).
 */
export interface AgentActionSubmitted {
  type: 'AgentActionSubmitted';
  data: AgentRef & {
    actionId: string;
    customerId: string;
    request: AgentActionRequest;
    status: 'APPROVED' | 'PENDING_APPROVAL';
    approvalCause: ApprovalCause | null;
    reservation: UsageReservation;
    submittedAt: string;
  };
}

/** The platform approved a pending action (`approvedBy`: `platform:<clientId>`); it runs next. */
export interface AgentActionApproved {
  type: 'AgentActionApproved';
  data: AgentRef & { actionId: string; approvedBy: string; approvedAt: string };
}

/** The platform refused a pending action: nothing ran, its reservation is released. */
export interface AgentActionRejected {
  type: 'AgentActionRejected';
  data: AgentRef & { actionId: string; reason: string | null; rejectedBy: string; reservation: UsageReservation; rejectedAt: string };
}

/**
 * One run of an approved action's operation took it on (`runId`, unique per attempt): of the
 * request that approved it and the recovery task (agent-action-process reactor), only the run
 * that recorded this claim starts a transfer, so a transfer is never started twice.
 */
export interface AgentActionRunClaimed {
  type: 'AgentActionRunClaimed';
  data: AgentRef & { actionId: string; runId: string; claimedAt: string };
}

/** The underlying operation ran: `transactionId` is the transaction it created. */
export interface AgentActionExecuted {
  type: 'AgentActionExecuted';
  data: AgentRef & { actionId: string; transactionId: string; executedAt: string };
}

/** The underlying operation was refused (quote expired, funds short, ...): reservation released. */
export interface AgentActionFailed {
  type: 'AgentActionFailed';
  data: AgentRef & { actionId: string; reason: string; code: string; reservation: UsageReservation; failedAt: string };
}

export type AgentActionEvent =
  | AgentQuoteCreated
  | AgentActionSubmitted
  | AgentActionApproved
  | AgentActionRunClaimed
  | AgentActionRejected
  | AgentActionExecuted
  | AgentActionFailed;

export const AGENT_ACTION_EVENT_TYPES: AgentActionEvent['type'][] = [
  'AgentQuoteCreated',
  'AgentActionSubmitted',
  'AgentActionApproved',
  'AgentActionRunClaimed',
  'AgentActionRejected',
  'AgentActionExecuted',
  'AgentActionFailed',
];
