/**
 * Events of an incoming UMA payment's stream (`transaction-<uuid>`): a payer on another VASP pays
 * one of our customers, the platform approves or refuses it, and only an approved payment credits
 * the customer's internal account. Every event carries `transactionId` and `platformId`, which the
 * `transactions` read model keys on.
 */

/** A field the payer's VASP asks about the receiver (the reference's CounterpartyFieldDefinition). */
export interface ReceiverFieldRequest {
  name: string;
  mandatory: boolean;
}

/** How the sandbox payer behaves after approval (its UMA address says which). */
export type SenderBehaviour = 'SUCCESS' | 'PENDING_LONG' | 'FAIL_COMPLIANCE';

/** Who decided: the platform's answer to the approval webhook, or its approve/reject call. */
export type DecidedVia = 'WEBHOOK' | 'API';

export interface IncomingAmount {
  /** Minor units. */
  amount: number;
  currency: string;
}

export interface IncomingRefund {
  reference: string;
  initiatedAt: string;
  settledAt: string | null;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  reason: 'TRANSACTION_FAILED';
}

type Ref = {
  transactionId: string;
  platformId: string;
};

export type IncomingPaymentTerms = Ref & {
  customerId: string;
  platformCustomerId: string | null;
  /** The internal account the credit lands in (its currency is `receivedAmount.currency`). */
  accountId: string;
  senderUmaAddress: string;
  receiverUmaAddress: string;
  /** What the payer sends, in the payer's currency. */
  sentAmount: IncomingAmount;
  /** What the customer receives, in the account's currency. */
  receivedAmount: IncomingAmount;
  /** Sending major units per receiving major unit, exact decimal text. */
  exchangeRate: string;
  /** Minor units of the sending currency. */
  fees: number;
  counterpartyInformation: Record<string, unknown>;
  requestedReceiverCustomerInfoFields: ReceiverFieldRequest[];
  /** The code that travels with the payment. */
  reference: string;
  senderBehaviour: SenderBehaviour;
};

/** The payer's VASP asked to pay; the approval webhook (round 1) goes out. */
export type IncomingPaymentReceived = {
  type: 'IncomingPaymentReceived';
  data: IncomingPaymentTerms & { approvalDeadline: string; receivedAt: string };
};
/** The platform answered 202 (or has no endpoint): it decides by API before the new deadline. */
export type IncomingPaymentApprovalDeferred = {
  type: 'IncomingPaymentApprovalDeferred';
  data: Ref & { approvalDeadline: string; deferredAt: string };
};
/**
 * The platform answered 422 naming payer fields it needs; the payer's VASP supplied them, and the
 * approval webhook goes out again (round `round`) with the merged counterparty information.
 */
export type IncomingPaymentCounterpartyInformationProvided = {
  type: 'IncomingPaymentCounterpartyInformationProvided';
  data: Ref & { requiredFields: string[]; counterpartyInformation: Record<string, unknown>; round: number; approvalDeadline: string; providedAt: string };
};
export type IncomingPaymentApproved = {
  type: 'IncomingPaymentApproved';
  data: Ref & { receiverCustomerInfo: Record<string, unknown> | null; via: DecidedVia; approvedAt: string };
};
/** The platform refused it (403 answer or `POST /transactions/{id}/reject`): status REJECTED, nothing moved. */
export type IncomingPaymentRejected = {
  type: 'IncomingPaymentRejected';
  data: Ref & { reason: string | null; via: DecidedVia; rejectedAt: string };
};
/** Credited to the customer's account (the ledger's credit carries the transaction id). */
export type IncomingPaymentCompleted = { type: 'IncomingPaymentCompleted'; data: Ref & { completedAt: string } };
/**
 * Failed: before approval (no answer in time, an endpoint error, missing data) nothing moved and
 * `refund` is null; after the payer's funds arrived (compliance) they go back: refund PENDING.
 */
export type IncomingPaymentFailed = {
  type: 'IncomingPaymentFailed';
  data: Ref & { failureReason: string; refund: IncomingRefund | null; failedAt: string };
};
export type IncomingPaymentRefundCompleted = { type: 'IncomingPaymentRefundCompleted'; data: Ref & { settledAt: string } };

export type IncomingPaymentEvent =
  | IncomingPaymentReceived
  | IncomingPaymentApprovalDeferred
  | IncomingPaymentCounterpartyInformationProvided
  | IncomingPaymentApproved
  | IncomingPaymentRejected
  | IncomingPaymentCompleted
  | IncomingPaymentFailed
  | IncomingPaymentRefundCompleted;

export const INCOMING_PAYMENT_EVENT_TYPES: IncomingPaymentEvent['type'][] = [
  'IncomingPaymentReceived',
  'IncomingPaymentApprovalDeferred',
  'IncomingPaymentCounterpartyInformationProvided',
  'IncomingPaymentApproved',
  'IncomingPaymentRejected',
  'IncomingPaymentCompleted',
  'IncomingPaymentFailed',
  'IncomingPaymentRefundCompleted',
];

/** The events that ask the platform for its approval (each one webhook, INCOMING_PAYMENT.PENDING). */
export const APPROVAL_REQUEST_EVENT_TYPES = ['IncomingPaymentReceived', 'IncomingPaymentCounterpartyInformationProvided'];
