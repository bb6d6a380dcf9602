/**
 * Configuration, read from the environment once and validated at boot.
 */
export type ProcessRole = 'api' | 'projector' | 'worker';

export interface AppConfig {
  port: number;
  /**
   * Address the HTTP server binds (HOST, default 127.0.0.1: loopback only). Containers set
   * 0.0.0.0. A sandbox bound to loopback may send webhooks to loopback and private addresses.
   */
  host: string;
  databaseUrl: string;
  redisUrl: string;
  eventStoreConnectionString: string | null;
  /** 'sandbox' simulates flows with magic values; 'production' refuses sandbox routes. */
  mode: 'sandbox' | 'production';
  roles: Set<ProcessRole>;
  /**
   * The projector runs in a worker thread of this process (`npm start` with no roles): the api and
   * worker roles on the main thread, the projector role on the thread, talking by messages (see
   * `ProjectorThread`), so no NOTIFY is needed between them.
   */
  projectorThread: boolean;
  platformClientId: string | null;
  platformClientSecret: string | null;
  /**
   * Whether the sandbox platform registered at first start is a regulated financial institution
   * (`SANDBOX_PLATFORM_REGULATED`, default true). `false`: its customers must accept the End User
   * Terms before they move money (403 END_USER_TERMS_NOT_ACCEPTED).
   */
  sandboxPlatformRegulated: boolean;
  /** Prefix for BullMQ queues and Redis keys (isolates test runs sharing one Redis). */
  queuePrefix: string;
  /** Root for local state (embedded Postgres, Redis, generated credentials, master key). */
  dataDir: string;
  /** 32-byte key (hex) sealing secrets at rest; generated under dataDir in the sandbox. */
  masterKeyHex: string | null;
  sandbox: SandboxTiming;
  /** Card detail reveals (docs/cards.md "Reveal"). */
  cardReveal: CardRevealConfig;
  webhooks: WebhookDeliveryConfig;
  incomingPayments: IncomingPaymentTiming;
  sca: ScaTiming;
  retention: RetentionConfig;
  /** Failed platform Basic authentications (docs/api.md "Authentication"). */
  platformAuth: PlatformAuthLimits;
  /** Agents' installation (docs/agents.md). */
  agents: AgentInstallationConfig;
  /** Hosted KYC/KYB links (docs/customers.md "Hosted KYC/KYB link"). */
  kycLinks: KycLinkConfig;
  /** The console's operator access (docs/console.md "Operator access and metrics"). */
  console: ConsoleConfig;
}

/** Operator access to the console's operations pages and `GET /metrics`. */
export interface ConsoleConfig {
  /**
   * The operators' Bearer key (OPERATOR_KEY). Unset in the sandbox: generated at first start and
   * kept in `<dataDir>/operator-key`. Unset in production: operator routes refuse every request.
   */
  operatorKey: string | null;
  /** How often an api process samples every consumer's lag for the lag history (CONSOLE_LAG_SAMPLE_INTERVAL_MS, 10 s). */
  lagSampleIntervalMs: number;
}

export interface KycLinkConfig {
  /** How long a link can be used (KYC_LINK_LIFETIME_MS, 24 hours). */
  lifetimeMs: number;
  /**
   * The origin (and path) the service is reached at from the internet (PUBLIC_BASE_URL, e.g.
   * `https://api.example.com`), for links handed to end users. Unset: the origin the platform
   * called the API at (the request's protocol and Host), right when nothing rewrites it between.
   */
  publicBaseUrl: string | null;
}

/** Device codes and their redemption (docs/agents.md "Device codes"). */
export interface AgentInstallationConfig {
  /** How long a device code can be redeemed (AGENT_DEVICE_CODE_LIFETIME_MS, 24 hours). */
  deviceCodeLifetimeMs: number;
  /** The fixed window failed redemptions are counted in per source address (1 minute). */
  redeemFailureWindowMs: number;
  /** Failed redemptions per source address per window; past it 429 until the window ends (AGENT_REDEEM_MAX_FAILURES_PER_ADDRESS, 20). */
  maxRedeemFailuresPerAddress: number;
  /**
   * How long after its approval an agent action's outcome is checked, and the action run when the
   * request running it died (AGENT_ACTION_SETTLE_DELAY_MS, 5 s). The request normally records
   * the outcome well within it; a shorter wait only means more checks that find a run still going.
   */
  actionSettleDelayMs: number;
}

/** Incoming payments' approval by the platform (docs/receiving.md). */
export interface IncomingPaymentTiming {
  /**
   * How long a platform that answered the approval webhook 202 (or has no endpoint) has to call
   * `POST /transactions/{id}/approve|reject` (the reference's 5 seconds).
   */
  approvalWindowMs: number;
}

/** Failed platform authentications counted per client id and per source address. */
export interface PlatformAuthLimits {
  /** The fixed window failures are counted in (1 minute). */
  failureWindowMs: number;
  /** Failures per client id per window; past it the id answers 429 until the window ends (10). */
  maxFailuresPerClient: number;
  /** Failures per source address per window; past it the address answers 429 until the window ends (50). */
  maxFailuresPerAddress: number;
}

/** `POST /cards/{id}/reveal` (docs/cards.md "Reveal"). */
export interface CardRevealConfig {
  /** How long a reveal URL loads the card's details (CARD_REVEAL_LIFETIME_MS, 5 minutes). */
  lifetimeMs: number;
}

/** Sandbox delays, configurable so tests run fast (milliseconds). */
export interface SandboxTiming {
  /** Default settlement delay after execute / transfer (DECISIONS.md section 2: about 1 s). */
  settlementDelayMs: number;
  /** The "long payment" scenarios (about 6 minutes). */
  longPaymentDelayMs: number;
  /** Transfer suffix 005: pending about 30 s, then fails. */
  slowFailureDelayMs: number;
  /** Delay between COMPLETED and the bank return for suffix 005 quotes. */
  returnDelayMs: number;
  /** Delay between a failed payout's refund starting (PENDING) and ending (COMPLETED or FAILED). */
  refundDelayMs: number;
  /** How long a `104` beneficiary name check stays PENDING before it resolves (default 30 s). */
  beneficiaryCheckDelayMs?: number;
  /** Card authorization suffix 005: the funding pull is confirmed this long after the authorization (default 30 s). */
  cardDelayedPullMs?: number;
  /**
   * Replaces every quote lifetime (5 or 15 minutes by rail) when set, so expiry can be exercised
   * quickly in tests and sandbox demos. Null: lifetimes by rail (DECISIONS.md section 2).
   */
  quoteLifetimeOverrideMs?: number | null;
}

/** Webhook delivery (DECISIONS.md section 6); every delay configurable so tests run fast. */
export interface WebhookDeliveryConfig {
  /** Per try: connect, send, and read the answer (10 s). */
  timeoutMs: number;
  /** First retry delay before jitter; doubles each try. */
  retryBaseDelayMs: number;
  /** Cap on the delay between two tries (30 minutes). */
  retryMaxDelayMs: number;
  /** How long a webhook keeps being retried after it is created (7 days). */
  retryWindowMs: number;
  /** Deliveries in flight at once per platform per worker process (fairness between platforms). */
  platformConcurrency: number;
  /** BullMQ job lock: a delivery whose worker died is handed to another worker after this. */
  lockDurationMs: number;
  /** How often workers look for deliveries whose worker died. */
  stalledIntervalMs: number;
  /** On shutdown, how long deliveries in flight may finish before they are interrupted. */
  shutdownGraceMs: number;
  /**
   * Webhooks (and the sandbox test webhook) may target loopback, private and link-local
   * addresses: WEBHOOK_ALLOW_PRIVATE_TARGETS=true, or a sandbox bound to loopback (HOST). Otherwise
   * such endpoints are refused when set and when sent (after DNS resolution).
   */
  allowPrivateTargets: boolean;
}

/** Strong Customer Authentication limits (DECISIONS.md section 3); configurable so tests run fast. */
export interface ScaTiming {
  /** Lifetime of a per-transaction, login or enrollment challenge (5 minutes). */
  challengeTtlMs: number;
  /** Lifetime of an SCA login session (180 days). */
  sessionTtlMs: number;
  /** How long SCA stays locked after too many wrong proofs in a row (15 minutes). */
  lockoutMs: number;
  /** Wrong proofs in a row that lock SCA for the customer (5). */
  maxFailedAttempts: number;
  /** Minimum time between two sends of a challenge's SMS code (30 s). */
  resendIntervalMs: number;
  /** Resends allowed per challenge (3). */
  maxResends: number;
  /** How long a 2FA reset waits before it can be completed (24 hours; docs/sca.md "2FA reset"). */
  factorResetWaitMs: number;
  /** How long a 2FA reset can be completed once the wait is over (24 hours). */
  factorResetWindowMs: number;
}

/** Purge of operational records (src/infra/retention, docs/operations.md "Retention"). */
export interface RetentionConfig {
  /** Webhook deliveries (with their attempts) settled and untouched for longer are deleted (30). */
  webhookDeliveryRetentionDays: number;
  /** How often each worker process runs the purge (1 hour); one process at a time does the work. */
  intervalMs: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export function loadConfig(env: NodeJS.ProcessEnv, resolved: { databaseUrl: string; redisUrl: string }): AppConfig {
  const mode = (env.SERVICE_MODE ?? (env.NODE_ENV === 'production' ? 'production' : 'sandbox')) as AppConfig['mode'];
  if (mode !== 'sandbox' && mode !== 'production') throw new Error(`SERVICE_MODE must be sandbox or production, got ${mode}`);
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const masterKeyHex = env.MASTER_KEY ?? null;
  if (masterKeyHex !== null && !/^[0-9a-fA-F]{64}$/.test(masterKeyHex)) throw new Error('MASTER_KEY must be 64 hex characters');
  if (mode === 'production' && !masterKeyHex) throw new Error('MASTER_KEY is required in production mode');
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: resolved.databaseUrl,
    redisUrl: resolved.redisUrl,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || null,
    mode,
    roles: new Set(['api', 'projector', 'worker']),
    projectorThread: false,
    platformClientId: env.PLATFORM_CLIENT_ID || null,
    platformClientSecret: env.PLATFORM_CLIENT_SECRET || null,
    sandboxPlatformRegulated: env.SANDBOX_PLATFORM_REGULATED !== 'false',
    queuePrefix: env.QUEUE_PREFIX || 'payments',
    dataDir: env.DATA_DIR || '.data',
    masterKeyHex,
    sandbox: {
      settlementDelayMs: numberFromEnv(env.SANDBOX_SETTLEMENT_DELAY_MS, 1000),
      longPaymentDelayMs: numberFromEnv(env.SANDBOX_LONG_PAYMENT_DELAY_MS, 6 * 60 * 1000),
      slowFailureDelayMs: numberFromEnv(env.SANDBOX_SLOW_FAILURE_DELAY_MS, 30 * 1000),
      beneficiaryCheckDelayMs: numberFromEnv(env.SANDBOX_BENEFICIARY_CHECK_DELAY_MS, 30 * 1000),
      cardDelayedPullMs: numberFromEnv(env.SANDBOX_CARD_DELAYED_PULL_MS, 30 * 1000),
      returnDelayMs: numberFromEnv(env.SANDBOX_RETURN_DELAY_MS, 5 * 1000),
      refundDelayMs: numberFromEnv(env.SANDBOX_REFUND_DELAY_MS, 1000),
      quoteLifetimeOverrideMs: env.SANDBOX_QUOTE_LIFETIME_MS ? numberFromEnv(env.SANDBOX_QUOTE_LIFETIME_MS, 0) : null,
    },
    cardReveal: {
      lifetimeMs: Math.max(1, numberFromEnv(env.CARD_REVEAL_LIFETIME_MS, 5 * 60 * 1000)),
    },
    webhooks: {
      timeoutMs: numberFromEnv(env.WEBHOOK_TIMEOUT_MS, 10 * 1000),
      retryBaseDelayMs: numberFromEnv(env.WEBHOOK_RETRY_BASE_DELAY_MS, 5 * 1000),
      retryMaxDelayMs: numberFromEnv(env.WEBHOOK_RETRY_MAX_DELAY_MS, 30 * 60 * 1000),
      retryWindowMs: numberFromEnv(env.WEBHOOK_RETRY_WINDOW_MS, 7 * 24 * 60 * 60 * 1000),
      platformConcurrency: Math.max(1, Math.floor(numberFromEnv(env.WEBHOOK_PLATFORM_CONCURRENCY, 32))),
      lockDurationMs: Math.max(500, numberFromEnv(env.WEBHOOK_LOCK_DURATION_MS, 30 * 1000)),
      stalledIntervalMs: Math.max(100, numberFromEnv(env.WEBHOOK_STALLED_INTERVAL_MS, 30 * 1000)),
      shutdownGraceMs: numberFromEnv(env.WEBHOOK_SHUTDOWN_GRACE_MS, 5 * 1000),
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true' || (mode === 'sandbox' && isLoopbackHost(host)),
    },
    incomingPayments: {
      approvalWindowMs: Math.max(1, numberFromEnv(env.INCOMING_APPROVAL_WINDOW_MS, 5 * 1000)),
    },
    sca: {
      challengeTtlMs: Math.max(1, numberFromEnv(env.SCA_CHALLENGE_TTL_MS, 5 * 60 * 1000)),
      sessionTtlMs: Math.max(1, numberFromEnv(env.SCA_SESSION_TTL_MS, 180 * 24 * 60 * 60 * 1000)),
      lockoutMs: Math.max(1, numberFromEnv(env.SCA_LOCKOUT_MS, 15 * 60 * 1000)),
      maxFailedAttempts: Math.max(1, Math.floor(numberFromEnv(env.SCA_MAX_FAILED_ATTEMPTS, 5))),
      resendIntervalMs: numberFromEnv(env.SCA_RESEND_INTERVAL_MS, 30 * 1000),
      maxResends: Math.floor(numberFromEnv(env.SCA_MAX_RESENDS, 3)),
      factorResetWaitMs: Math.max(0, numberFromEnv(env.SCA_FACTOR_RESET_WAIT_MS, 24 * 60 * 60 * 1000)),
      factorResetWindowMs: Math.max(1, numberFromEnv(env.SCA_FACTOR_RESET_WINDOW_MS, 24 * 60 * 60 * 1000)),
    },
    retention: {
      webhookDeliveryRetentionDays: numberFromEnv(env.WEBHOOK_DELIVERY_RETENTION_DAYS, 30),
      intervalMs: Math.max(100, numberFromEnv(env.RETENTION_INTERVAL_MS, 60 * 60 * 1000)),
    },
    platformAuth: {
      failureWindowMs: Math.max(1000, numberFromEnv(env.PLATFORM_AUTH_FAILURE_WINDOW_MS, 60 * 1000)),
      maxFailuresPerClient: Math.max(1, Math.floor(numberFromEnv(env.PLATFORM_AUTH_MAX_FAILURES_PER_CLIENT, 10))),
      maxFailuresPerAddress: Math.max(1, Math.floor(numberFromEnv(env.PLATFORM_AUTH_MAX_FAILURES_PER_ADDRESS, 50))),
    },
    agents: {
      deviceCodeLifetimeMs: Math.max(1, numberFromEnv(env.AGENT_DEVICE_CODE_LIFETIME_MS, 24 * 60 * 60 * 1000)),
      redeemFailureWindowMs: 60 * 1000,
      maxRedeemFailuresPerAddress: Math.max(1, Math.floor(numberFromEnv(env.AGENT_REDEEM_MAX_FAILURES_PER_ADDRESS, 20))),
      actionSettleDelayMs: numberFromEnv(env.AGENT_ACTION_SETTLE_DELAY_MS, 5_000),
    },
    kycLinks: {
      lifetimeMs: Math.max(1, numberFromEnv(env.KYC_LINK_LIFETIME_MS, 24 * 60 * 60 * 1000)),
      publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL),
    },
    console: {
      operatorKey: operatorKey(env.OPERATOR_KEY),
      lagSampleIntervalMs: Math.max(100, numberFromEnv(env.CONSOLE_LAG_SAMPLE_INTERVAL_MS, 10_000)),
    },
  };
}

/** An operator key: visible ASCII, long enough that guessing it is hopeless (the sandbox's: 64 hex). */
const OPERATOR_KEY_FORM = /^[\x21-\x7e]{32,256}$/;

function operatorKey(text: string | undefined): string | null {
  if (text === undefined || text === '') return null;
  if (!OPERATOR_KEY_FORM.test(text)) throw new Error('OPERATOR_KEY must be 32 to 256 visible ASCII characters');
  return text;
}

function publicBaseUrl(text: string | undefined): string | null {
  if (text === undefined || text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`PUBLIC_BASE_URL must be an absolute http(s) URL, got ${text}`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username) {
    throw new Error(`PUBLIC_BASE_URL must be an http(s) origin and path without query, fragment or credentials, got ${text}`);
  }
  return url.href.replace(/\/+$/, '');
}

/** A bind address only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare) || /^::ffff:127\./.test(bare);
}

function numberFromEnv(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`Expected a non-negative number, got ${text}`);
  return value;
}

/**
 * A process without both the api and projector roles shares the work with other processes: its
 * appends NOTIFY other processes' subscriptions, and its projector NOTIFYs api processes' waiters.
 * A projector thread is told by messages instead, from the one api of its process.
 */
export function splitDeployment(config: AppConfig): boolean {
  if (config.projectorThread) return false;
  return !config.roles.has('projector') || !config.roles.has('api');
}
