import { AgentRecord } from '../domain/agent.decider';
import { AgentPolicy } from '../domain/policy/agent-policy';
import { AgentUsage, usageAt } from '../domain/usage';

/**
 * An agent exactly as `GET /agents/{id}` and `GET /agents/me` return it (the reference's Agent).
 * Null policy fields (no daily limit, no restrictions) are left out on the wire.
 * @example
 * {
 *   "id": "Agent:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58",
 *   "name": "Payroll Automation Agent",
 *   "customerId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "isPaused": false,
 *   "isConnected": true,
 *   "policy": {
 *     "permissions": ["VIEW_TRANSACTIONS", "CREATE_TRANSFERS"],
 *     "defaultExecutionMode": "AUTO",
 *     "spendingLimits": { "currency": "USD", "perTransactionLimit": 50000, "dailyLimit": 500000 },
 *     "approvalThresholds": { "currency": "USD", "amount": 100000 }
 *   },
 *   "usage": { "dailyTransactionCount": 0, "dailySpend": 0, "dailyResetDate": "2025-11-04", "monthlySpend": 0, "monthlyResetMonth": "2025-12" },
 *   "createdAt": "2025-11-03T14:22:30.004Z",
 *   "updatedAt": "2025-11-03T14:25:02.118Z"
 * }
 */
export interface AgentView {
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  /** True once a device code was redeemed (the software installed). */
  isConnected: boolean;
  policy: AgentPolicy;
  /** Spend in the current UTC day and month, in minor units of `policy.spendingLimits.currency`. */
  usage: AgentUsage;
  createdAt: string;
  updatedAt: string;
}

/**
 * A device code as `POST /agents` and `POST /agents/{id}/device-codes` answer it: the only time
 * the code itself is shown.
 */
export interface AgentDeviceCodeView {
  /** `AGENT-XXXX-XXXX`, case-insensitive. */
  code: string;
  agentId: string;
  expiresAt: string;
  redeemed: boolean;
}

/** `POST /agents`: the agent and the code its software redeems to install itself. */
export interface AgentCreatedView {
  agent: AgentView;
  deviceCode: AgentDeviceCodeView;
}

/** `GET /agents/device-codes/{code}/status`. */
export interface AgentDeviceCodeStatusView {
  code: string;
  redeemed: boolean;
}

/** `POST /agents/device-codes/{code}/redeem`: the access token is shown this once. */
export interface AgentDeviceCodeRedeemedView {
  agentId: string;
  agentName: string;
  /** `gat_` and 40 hex digits; send it as `Authorization: Bearer <accessToken>`. */
  accessToken: string;
  policy: AgentPolicy;
}

/** The view at `now` (usage counters of a past day or month read as zero). */
export function agentView(record: AgentRecord, now: Date = new Date()): AgentView {
  return {
    id: record.agentId,
    name: record.name,
    customerId: record.customerId,
    isPaused: record.isPaused,
    isConnected: record.isConnected,
    policy: record.policy,
    usage: usageAt(record.usage, now),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
