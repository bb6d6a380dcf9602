/**
 * The console API's answers as the issue 29 contract fixes them (docs/console.md), and the
 * existing routes the console reads. Only the fields the pages show are typed; nulls are left
 * out of answers, so every optional field may be missing.
 */

export interface ApiErrorBody {
  status: number;
  code: string;
  message: string;
  details?: { errors?: { field: string; message: string }[]; reason?: string; [key: string]: unknown };
}

export interface SearchResult {
  id: string;
  type: string;
  label: string;
}

export interface AuditEntry {
  eventId: string;
  type: string;
  streamName: string;
  revision: number;
  position: string;
  recordedAt: string;
  data: Record<string, unknown>;
  metadata: {
    correlationId?: string;
    causationId?: string;
    actor?: string;
    requestId?: string;
    idempotencyKey?: string;
    [key: string]: unknown;
  };
}

export interface RelatedResource extends SearchResult {
  relation: string;
}

export interface ResourcePage {
  id: string;
  type: string;
  state: unknown;
  events: AuditEntry[];
  related: RelatedResource[];
}

export interface StateAtRevision {
  id: string;
  type: string;
  revision: number;
  state: unknown;
}

export interface DeliveryAttempt {
  attemptNumber: number;
  trigger: string;
  attemptedAt: string;
  endpoint?: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  type: string;
  status: string;
  attemptCount: number;
  lastStatusCode?: number;
  lastError?: string;
  endpoint?: string;
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
  deliveredAt?: string;
  payload: unknown;
  attempts: DeliveryAttempt[];
}

export interface DeliveryPage {
  data: Delivery[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount?: number;
}

export const DELIVERY_STATUSES = ['PENDING', 'RETRYING', 'DELIVERED', 'FAILED'] as const;

export interface Consumer {
  name: string;
  kind: 'projection' | 'reactor';
  position?: string;
  lagEvents: number;
  lagSeconds: number;
  state?: string;
  lastError?: string;
  lastErrorAt?: string;
  eventsApplied?: number;
  updatedAt?: string;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export type JobKind = 'rebuild' | 'verify';

export interface Job {
  id: string;
  kind: JobKind;
  projection: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  progress: { done: number; total: number };
  startedAt: string;
  finishedAt?: string;
  result?: { differences?: number; eventsApplied?: number };
  error?: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded' | 'unavailable';
  checks: Record<string, { status?: string; latencyMs?: number; error?: string; reasons?: string[] } & Record<string, unknown>>;
}

export interface Operations {
  health: HealthReport;
  consumers: Consumer[];
  queues: Record<string, QueueCounts>;
  jobs: Job[];
}

export interface LagHistory {
  samples: { at: string; consumers: Record<string, number> }[];
}

export interface VolumeBucket {
  bucketStart: string;
  count: number;
  failed: number;
}

export interface Charts {
  volume: VolumeBucket[];
  webhookLatencyMs: { buckets: { le: number; count: number }[]; p50?: number; p99?: number };
}
