import { ProviderEnvironment, StablecoinProvider } from '../provider-account/provider-account.events';
import { StablecoinOperationType } from '../stablecoin/stablecoin.events';

/**
 * Events of one mint or burn (`stablecoinOperation-<uuid>`). `source`, `destination`,
 * `fundingInstructions` and `estimatedDelivery` are recorded in the reference's wire shapes.
 * Never rename an event type: add a new one.
 */
export const STABLECOIN_OPERATION_STATUSES = ['CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type StablecoinOperationStatus = (typeof STABLECOIN_OPERATION_STATUSES)[number];

/** What the (sandbox) provider will do, fixed at creation so a replayed task answers the same. */
export type OperationProviderScenario = 'COMPLETE' | 'FAIL' | 'EXPIRE' | 'NO_ANSWER';

export interface OperationSource {
  type: 'WIRE' | 'ACH_DEBIT' | 'SAME_DAY_ACH_DEBIT' | 'EXTERNAL_ACCOUNT' | 'GRID_INTERNAL_ACCOUNT' | 'PROVIDER_INTERNAL_BALANCE';
  externalAccountId?: string;
  accountId?: string;
  sourceTokenIdentifier?: string;
  cryptoNetwork?: string;
}

export interface OperationDestination {
  accountId: string;
  rail?: 'WIRE' | 'ACH_CREDIT' | 'SAME_DAY_ACH_CREDIT' | 'RTP_CREDIT';
}

/**
 * The ledger's part: `hold` is placed at creation (settled on completion, released otherwise);
 * `credit` is paid on completion. Amounts in the held or credited account's minor units.
 */
export interface OperationLedgerPlan {
  hold: { accountId: string; amount: number } | null;
  credit: { accountId: string; amount: number } | null;
}

type OperationRef = { operationId: string; stablecoinId: string; platformId: string };

export interface StablecoinOperationCreated {
  type: 'StablecoinOperationCreated';
  data: OperationRef & {
    operationType: StablecoinOperationType;
    status: 'PENDING_FUNDING' | 'PENDING_PROVIDER';
    /** In the coin's smallest unit. */
    amount: number;
    /** The same amount in the base currency's minor units (cents). */
    fiatAmount: number;
    baseCurrency: string;
    provider: StablecoinProvider;
    providerEnvironment: ProviderEnvironment;
    stablecoinProviderAccountId: string;
    source: OperationSource;
    destination: OperationDestination;
    fundingInstructions: Record<string, string> | null;
    estimatedDelivery: Record<string, string> | null;
    expiresAt: string | null;
    description: string | null;
    providerScenario: OperationProviderScenario;
    ledger: OperationLedgerPlan;
    createdAt: string;
  };
}

/** The provider received the external funding the operation awaited. */
export interface StablecoinOperationFunded {
  type: 'StablecoinOperationFunded';
  data: OperationRef & { fundedAt: string };
}

export interface StablecoinOperationCompleted {
  type: 'StablecoinOperationCompleted';
  data: OperationRef & { completedAt: string };
}

export interface StablecoinOperationFailed {
  type: 'StablecoinOperationFailed';
  data: OperationRef & { failureReason: string; failedAt: string };
}

export interface StablecoinOperationExpired {
  type: 'StablecoinOperationExpired';
  data: OperationRef & { expiredAt: string };
}

export type StablecoinOperationEvent =
  | StablecoinOperationCreated
  | StablecoinOperationFunded
  | StablecoinOperationCompleted
  | StablecoinOperationFailed
  | StablecoinOperationExpired;

export const STABLECOIN_OPERATION_EVENT_TYPES: StablecoinOperationEvent['type'][] = [
  'StablecoinOperationCreated',
  'StablecoinOperationFunded',
  'StablecoinOperationCompleted',
  'StablecoinOperationFailed',
  'StablecoinOperationExpired',
];
