import type { WireTransaction } from '../../accounts';
import type { QuoteView } from '../../quotes';
import { AgentActionRequest, AgentActionStatus, AgentActionType } from '../domain/agent-action.events';

/** What an action's view is made of: the decider's action state and the read model's record both carry it. */
export interface AgentActionSource {
  actionId: string;
  agentId: string;
  platformId: string;
  customerId: string;
  request: AgentActionRequest;
  status: AgentActionStatus;
  transactionId: string | null;
  rejectionReason: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * An action exactly as `GET /agents/me/actions/{id}`, the approval routes and the
 * `AGENT_ACTION.PENDING_APPROVAL` webhook show it (the reference's AgentAction). `quote` is the
 * quote as it stands now (EXECUTE_QUOTE), `transaction` the transaction the operation created once
 * it ran. `failureReason` is ours: why an approved action FAILED (e.g. `QUOTE_EXPIRED`,
 * `INSUFFICIENT_FUNDS`).
 * @example
 * {
 *   "id": "AgentAction:019a4a1f-03c2-7b8e-9d1a-2c4e6f8a0b13",
 *   "agentId": "Agent:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58",
 *   "customerId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "platformCustomerId": "user-a1b2c3",
 *   "status": "PENDING_APPROVAL",
 *   "type": "TRANSFER_OUT",
 *   "transferDetails": {
 *     "amount": 75000, "currency": "USD",
 *     "sourceAccountId": "InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57",
 *     "destinationAccountId": "ExternalAccount:019a2a1e-4d90-7c15-8b3e-f1a2c4d6e8b0"
 *   },
 *   "createdAt": "2025-11-03T15:00:00.000Z",
 *   "updatedAt": "2025-11-03T15:00:00.000Z"
 * }
 */
export interface AgentActionView {
  id: string;
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  status: AgentActionStatus;
  type: AgentActionType;
  quote?: QuoteView;
  transferDetails?: { amount: number; currency: string; sourceAccountId: string; destinationAccountId: string };
  transaction?: WireTransaction;
  rejectionReason?: string;
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
}

export interface AgentActionParts {
  platformCustomerId: string;
  quote: QuoteView | null;
  transaction: WireTransaction | null;
}

export function agentActionView(source: AgentActionSource, parts: AgentActionParts): AgentActionView {
  const transfer = source.request.transfer;
  return {
    id: source.actionId,
    agentId: source.agentId,
    customerId: source.customerId,
    platformCustomerId: parts.platformCustomerId,
    status: source.status,
    type: source.request.type,
    ...(parts.quote ? { quote: parts.quote } : {}),
    ...(transfer
      ? { transferDetails: { amount: transfer.amount, currency: transfer.currency, sourceAccountId: transfer.sourceAccountId, destinationAccountId: transfer.destinationAccountId } }
      : {}),
    ...(parts.transaction ? { transaction: parts.transaction } : {}),
    ...(source.rejectionReason !== null ? { rejectionReason: source.rejectionReason } : {}),
    ...(source.failureReason !== null ? { failureReason: source.failureReason } : {}),
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
  };
}
