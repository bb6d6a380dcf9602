import { Injectable } from '@nestjs/common';
import { DomainError } from '../../infra/domain/domain-error';
import { DomainEvent } from '../../infra/domain/decider';
import { AppendResult, ConcurrencyError, EventMetadata, Position } from '../../infra/event-store/event-store.port';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { parseId, streamNameFor, uuidv5 } from '../../infra/ids';
import { recordAppendedPosition } from '../../infra/request-context';
import {
  InternalAccountCommand,
  InternalAccountState,
  OpenAccount,
  accountNotFound,
  internalAccountDecider,
} from '../domain/internal-account/internal-account.decider';
import { InternalAccountEvent, InternalAccountType } from '../domain/internal-account/internal-account.events';

export interface LedgerAccountSnapshot {
  accountId: string;
  platformId: string;
  customerId: string | null;
  accountType: InternalAccountType;
  currency: string;
  /** `balance.amount` of the GET view. */
  available: number;
  held: number;
  /** `totalBalance.amount` = available + held. */
  total: number;
  openedAt: string;
  updatedAt: string;
}

export interface LedgerStepResult extends LedgerAccountSnapshot {
  /** False when the step had already been applied (an idempotent repeat). */
  applied: boolean;
}

export interface OpenAccountInput {
  platformId: string;
  accountId: string;
  customerId: string | null;
  accountType: InternalAccountType;
  currency: string;
  /** Deterministic time (the customer's or platform's creation), so a replay opens the same way. */
  openedAt: string;
}

export interface CreditInput {
  platformId: string;
  accountId: string;
  /** The business key of the credit (e.g. a transaction id): a repeat is a no-op. */
  movementId: string;
  amount: number;
  /** Why the money came in, e.g. SANDBOX_FUNDING, TRANSFER_IN, QUOTE_REFUND. */
  reason: string;
  reference?: string | null;
}

export interface HoldInput {
  platformId: string;
  accountId: string;
  holdId: string;
  amount: number;
  reference?: string | null;
}

export interface HoldRef {
  platformId: string;
  accountId: string;
  holdId: string;
}

/**
 * Events of another stream (e.g. the quote's) to commit in the same transaction as a ledger step,
 * at the revision the caller decided them on.
 */
export interface CompanionAppend {
  streamName: string;
  events: DomainEvent[];
  expectedRevision: number | 'no_stream';
  /** Metadata overrides of the companion's events (e.g. the tenant, when a reactor writes). */
  metadata?: Partial<EventMetadata>;
}

/**
 * The outcome of an atomic step: `applied` (both streams written in one commit) or `declined`,
 * with nothing written; the caller then takes its sequential path, which settles every case
 * (refusals, repeats, races) from a fresh read. REFUSED: the account does not allow the step (or
 * is not this platform's); NOOP: the step is already done; COMPANION_CONFLICT: the companion
 * stream moved; ACCOUNT_CONFLICT: the account kept moving under another process; UNSUPPORTED:
 * the event store cannot commit several streams at once.
 */
export type AtomicStepOutcome =
  | { kind: 'applied'; account: LedgerStepResult; companion: AppendResult }
  | { kind: 'declined'; reason: 'REFUSED' | 'NOOP' | 'COMPANION_CONFLICT' | 'ACCOUNT_CONFLICT' | 'UNSUPPORTED' };

/** The outcome of `openAllWith`: every account opened with the companion in one commit, or nothing written. */
export type AtomicOpenOutcome =
  | { kind: 'applied'; companion: AppendResult }
  | { kind: 'declined'; reason: 'COMPANION_CONFLICT' | 'ACCOUNT_CONFLICT' | 'UNSUPPORTED' };

const MAX_ATTEMPTS = 100;
/** Decisions of an atomic step: on the cached state, then once more after catching up. */
const MAX_ATOMIC_ATTEMPTS = 2;
const CACHE_LIMIT = 10_000;

/**
 * The ledger of internal accounts: one stream per account, every movement an event whose id is
 * derived from its business key, so each step is idempotent. Concurrency: work on one account is
 * serialised inside this process, and across processes by the expected revision (on a conflict
 * the step is re-read and re-decided). Balances never go negative: a hold larger than the
 * available balance is refused with 400 INSUFFICIENT_FUNDS.
 *
 * Exported to other contexts (quotes, cards, wallets) as the only way to move money.
 */
@Injectable()
export class AccountsLedger {
  /** Folded state per stream with its revision; catches up from the store before each step. */
  private readonly cache = new Map<string, { state: InternalAccountState; revision: number | 'no_stream'; position: Position | null }>();
  private readonly locks = new Map<string, Promise<void>>();

  constructor(private readonly events: EventStoreService) {}

  /**
   * Opens the account (a no-op when it is open). A customer's accounts open through
   * InternalAccountProvisioner, which decides on the customer's stream first.
   */
  async open(input: OpenAccountInput): Promise<LedgerStepResult> {
    return this.step(input.platformId, input.accountId, { allowNew: true }, openCommand(input));
  }

  async credit(input: CreditInput): Promise<LedgerStepResult> {
    return this.step(input.platformId, input.accountId, {}, {
      type: 'CreditFunds',
      movementId: input.movementId,
      amount: input.amount,
      reason: input.reason,
      reference: input.reference ?? null,
      now: new Date().toISOString(),
    });
  }

  /** Moves `amount` from available to held; 400 INSUFFICIENT_FUNDS when available < amount. */
  async hold(input: HoldInput): Promise<LedgerStepResult> {
    return this.step(input.platformId, input.accountId, {}, {
      type: 'HoldFunds',
      holdId: input.holdId,
      amount: input.amount,
      reference: input.reference ?? null,
      now: new Date().toISOString(),
    });
  }

  /** The held money leaves the account (held decreases; available unchanged). */
  async settleHold(input: HoldRef): Promise<LedgerStepResult> {
    return this.step(input.platformId, input.accountId, {}, { type: 'SettleHold', holdId: input.holdId, now: new Date().toISOString() });
  }

  /** The held money returns to available (a refund). Releasing an unknown hold is a no-op. */
  async releaseHold(input: HoldRef & { reason: string }): Promise<LedgerStepResult> {
    return this.step(input.platformId, input.accountId, {}, {
      type: 'ReleaseHold',
      holdId: input.holdId,
      reason: input.reason,
      now: new Date().toISOString(),
    });
  }

  /**
   * Gives a hold back like releaseHold; when nothing was held under this id yet, records a
   * tombstone instead, so a hold with this id placed afterwards (by a slow process that lost a
   * race) is refused with INVALID_STATE_TRANSITION (`details.reason` HOLD_VOIDED). Use it where a
   * flow abandons a hold id that another process may still be about to place.
   */
  async voidHold(input: HoldRef & { reason: string }): Promise<LedgerStepResult> {
    return this.step(input.platformId, input.accountId, {}, {
      type: 'VoidHold',
      holdId: input.holdId,
      reason: input.reason,
      now: new Date().toISOString(),
    });
  }

  /** The accounts among `accountIds` that are not open yet, from their streams. */
  async unopened(accountIds: string[]): Promise<string[]> {
    const missing: string[] = [];
    for (const accountId of accountIds) {
      const stream = this.streamFor(accountId);
      // An account never closes: an open one cached is open (and the read models are waited for up to it).
      const cached = this.cache.get(stream);
      if (cached?.state.status === 'open') {
        if (cached.position) recordAppendedPosition(cached.position);
        continue;
      }
      const { state } = await this.withLock(stream, () => this.load(stream));
      if (state.status !== 'open') missing.push(accountId);
    }
    return missing;
  }

  /**
   * Opens every account of `inputs` with `companion` in ONE commit, each account stream expected
   * not to exist yet: all are opened, or nothing is written and the outcome says why (an account
   * exists by now: ACCOUNT_CONFLICT; the companion stream moved: COMPANION_CONFLICT; the event
   * store cannot commit several streams: UNSUPPORTED). The caller re-reads and re-decides.
   */
  async openAllWith(inputs: OpenAccountInput[], companion: CompanionAppend): Promise<AtomicOpenOutcome> {
    if (!this.events.supportsAtomicMultiAppend) return { kind: 'declined', reason: 'UNSUPPORTED' };
    const opened = inputs.map((input) => {
      const stream = this.streamFor(input.accountId);
      const decided = internalAccountDecider.decide(openCommand(input), internalAccountDecider.initialState());
      return { input, stream, decided };
    });
    // Locks in one order (stream name), so two multi-account opens in this process never wait on each other crosswise.
    const streams = opened.map((entry) => entry.stream).sort();
    return this.withLocks(streams, async () => {
      try {
        const appended = await this.events.appendToStreams([
          ...opened.map(({ input, stream, decided }) => ({
            streamName: stream,
            events: withEventIds(input.accountId, decided),
            expectedRevision: 'no_stream' as const,
            metadata: { platformId: input.platformId },
          })),
          companion,
        ]);
        opened.forEach(({ stream, decided }, index) => this.committed(stream, internalAccountDecider.initialState(), decided, appended[index]));
        return { kind: 'applied', companion: appended[appended.length - 1] };
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        return { kind: 'declined', reason: error.streamName === companion.streamName ? 'COMPANION_CONFLICT' : 'ACCOUNT_CONFLICT' };
      }
    });
  }

  /** Whether the `...With` steps can commit anything (the event store has multi-stream appends). */
  get supportsAtomicSteps(): boolean {
    return this.events.supportsAtomicMultiAppend;
  }

  /** `hold`, committed with `companion` in one transaction (see `stepWith`). */
  async holdWith(input: HoldInput & { now: string }, companion: CompanionAppend): Promise<AtomicStepOutcome> {
    return this.stepWith(input.platformId, input.accountId, {
      type: 'HoldFunds',
      holdId: input.holdId,
      amount: input.amount,
      reference: input.reference ?? null,
      now: input.now,
    }, companion);
  }

  /** `settleHold`, committed with `companion` in one transaction (see `stepWith`). */
  async settleHoldWith(input: HoldRef & { now: string }, companion: CompanionAppend): Promise<AtomicStepOutcome> {
    return this.stepWith(input.platformId, input.accountId, { type: 'SettleHold', holdId: input.holdId, now: input.now }, companion);
  }

  /** `releaseHold`, committed with `companion` in one transaction (see `stepWith`). */
  async releaseHoldWith(input: HoldRef & { reason: string; now: string }, companion: CompanionAppend): Promise<AtomicStepOutcome> {
    return this.stepWith(input.platformId, input.accountId, {
      type: 'ReleaseHold',
      holdId: input.holdId,
      reason: input.reason,
      now: input.now,
    }, companion);
  }

  /**
   * The balances this process last knew for the account, without reading the stream when it has
   * them (they may miss another process's latest movement): for checks that a later ledger step
   * enforces anyway, such as refusing a quote from an obviously short account. Falls back to
   * `snapshot`.
   */
  async recentSnapshot(input: { platformId: string; accountId: string }): Promise<LedgerAccountSnapshot> {
    const cached = this.cache.get(this.streamFor(input.accountId));
    if (cached && cached.state.status === 'open' && cached.state.platformId === input.platformId) return snapshotOf(cached.state);
    return this.snapshot(input);
  }

  /** The account's balances read from its stream (authoritative, unlike the read model). */
  async snapshot(input: { platformId: string; accountId: string }): Promise<LedgerAccountSnapshot> {
    const stream = this.streamFor(input.accountId);
    return this.withLock(stream, async () => {
      const { state } = await this.load(stream);
      if (state.status !== 'open' || state.platformId !== input.platformId) throw accountNotFound();
      return snapshotOf(state);
    });
  }

  /** The hold's status, or null when nothing was ever held under this id. */
  async holdStatus(input: HoldRef): Promise<{ amount: number; status: 'HELD' | 'SETTLED' | 'RELEASED' | 'VOIDED' } | null> {
    const stream = this.streamFor(input.accountId);
    return this.withLock(stream, async () => {
      const { state } = await this.load(stream);
      if (state.status !== 'open' || state.platformId !== input.platformId) throw accountNotFound();
      const hold = state.holds[input.holdId];
      return hold ? { ...hold } : null;
    });
  }

  private streamFor(accountId: string): string {
    if (!parseId('InternalAccount', accountId)) throw accountNotFound();
    return streamNameFor(accountId);
  }

  private async step(
    platformId: string,
    accountId: string,
    options: { allowNew?: boolean },
    command: InternalAccountCommand,
  ): Promise<LedgerStepResult> {
    const stream = this.streamFor(accountId);
    return this.withLock(stream, async () => {
      // First try on the cached state without reading the stream: the append expects the cached
      // revision, so a write by another process shows up as a conflict, and then the stream is
      // read. A refusal or a no-op decided on the cache is checked against the stream first.
      let optimistic = true;
      for (let attempt = 1; ; attempt++) {
        const cached = optimistic ? this.cache.get(stream) : undefined;
        optimistic = false;
        const { state, revision } = cached && cached.revision !== 'no_stream' ? cached : await this.load(stream);
        if (state.status === 'open' && state.platformId !== platformId) throw accountNotFound();
        if (state.status === 'none' && !options.allowNew) throw accountNotFound();
        let decided: InternalAccountEvent[];
        try {
          decided = internalAccountDecider.decide(command, state);
        } catch (error) {
          if (cached) continue;
          throw error;
        }
        if (decided.length === 0) {
          if (cached) continue;
          return { ...snapshotOf(state as OpenAccount), applied: false };
        }
        try {
          // The account's platform is the tenant of its movements, whoever asks (a reactor, a task).
          const appended = await this.events.append(stream, withEventIds(accountId, decided), revision, { platformId });
          return this.committed(stream, state, decided, appended);
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          // Another process wrote to this account: the next load catches up from our revision.
          if (attempt >= MAX_ATTEMPTS) throw new DomainError('CONFLICT', 'The account is too busy; retry the request');
          await sleep(Math.min(50, attempt * 2) * Math.random());
        }
      }
    });
  }

  /**
   * A movement and the caller's companion events in ONE commit, when the account accepts the step
   * as it stands: decided under the account's lock on the cached state (caught up from the stream
   * when absent, or once after the account moved under another process). Anything else (a
   * refusal, a repeat, a conflict on either stream) is declined with nothing written and the cache
   * untouched (still a true state at its revision), for the caller's sequential path to settle.
   */
  private async stepWith(
    platformId: string,
    accountId: string,
    command: InternalAccountCommand,
    companion: CompanionAppend,
  ): Promise<AtomicStepOutcome> {
    if (!this.events.supportsAtomicMultiAppend) return { kind: 'declined', reason: 'UNSUPPORTED' };
    const stream = this.streamFor(accountId);
    return this.withLock(stream, async () => {
      for (let attempt = 1; attempt <= MAX_ATOMIC_ATTEMPTS; attempt++) {
        const cached = attempt === 1 ? this.cache.get(stream) : undefined;
        const { state, revision } = cached && cached.revision !== 'no_stream' ? cached : await this.load(stream);
        if (state.status !== 'open' || state.platformId !== platformId || revision === 'no_stream') return { kind: 'declined', reason: 'REFUSED' };
        let decided: InternalAccountEvent[];
        try {
          decided = internalAccountDecider.decide(command, state);
        } catch (error) {
          if (error instanceof DomainError) return { kind: 'declined', reason: 'REFUSED' };
          throw error;
        }
        if (decided.length === 0) return { kind: 'declined', reason: 'NOOP' };
        try {
          const [appended, companionAppended] = await this.events.appendToStreams([
            // The account's platform is the tenant of its movements, whoever asks.
            { streamName: stream, events: withEventIds(accountId, decided), expectedRevision: revision, metadata: { platformId } },
            companion,
          ]);
          return { kind: 'applied', account: this.committed(stream, state, decided, appended), companion: companionAppended };
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          if (error.streamName !== stream) return { kind: 'declined', reason: 'COMPANION_CONFLICT' };
        }
      }
      return { kind: 'declined', reason: 'ACCOUNT_CONFLICT' };
    });
  }

  /** After `decided` was appended on `state`: the new state cached at its revision, and its balances. */
  private committed(stream: string, state: InternalAccountState, decided: InternalAccountEvent[], appended: AppendResult): LedgerStepResult {
    let next = state;
    for (const event of decided) next = internalAccountDecider.evolve(next, event);
    this.remember(stream, next, appended.nextExpectedRevision, appended.position);
    return { ...snapshotOf(next as OpenAccount), applied: true };
  }

  /**
   * Catches the cached state up with the stream. The position of the newest event seen is noted
   * in the request context: when a step turns out to be already done (by a reactor that raced this
   * request), the response still waits until the read models include that event.
   */
  private async load(stream: string): Promise<{ state: InternalAccountState; revision: number | 'no_stream' }> {
    const cached = this.cache.get(stream);
    const fromRevision = cached && cached.revision !== 'no_stream' ? cached.revision + 1 : 0;
    const newer = await this.events.store.readStream(stream, { fromRevision });
    let state = cached && cached.revision !== 'no_stream' ? cached.state : internalAccountDecider.initialState();
    let revision: number | 'no_stream' = cached && cached.revision !== 'no_stream' ? cached.revision : 'no_stream';
    let position = cached?.position ?? null;
    for (const event of newer) {
      state = internalAccountDecider.evolve(state, { type: event.type, data: event.data } as unknown as InternalAccountEvent);
      revision = event.revision;
      position = event.position;
    }
    this.remember(stream, state, revision, position);
    if (position) recordAppendedPosition(position);
    return { state, revision };
  }

  private remember(stream: string, state: InternalAccountState, revision: number | 'no_stream', position: Position | null): void {
    if (revision === 'no_stream') return;
    this.cache.delete(stream);
    this.cache.set(stream, { state, revision, position });
    if (this.cache.size > CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined && !this.locks.has(oldest)) this.cache.delete(oldest);
    }
  }

  /** `withLock` on every key, taken in the given order. */
  private async withLocks<T>(keys: string[], work: () => Promise<T>): Promise<T> {
    if (keys.length === 0) return work();
    return this.withLock(keys[0], () => this.withLocks(keys.slice(1), work));
  }

  /** Runs `work` after every earlier piece of work on `key` in this process (a per-account queue). */
  private async withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.locks.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }
}

function openCommand(input: OpenAccountInput): InternalAccountCommand {
  return {
    type: 'OpenInternalAccount',
    accountId: input.accountId,
    platformId: input.platformId,
    customerId: input.customerId,
    accountType: input.accountType,
    currency: input.currency,
    now: input.openedAt,
  };
}

function snapshotOf(state: OpenAccount): LedgerAccountSnapshot {
  return {
    accountId: state.accountId,
    platformId: state.platformId,
    customerId: state.customerId,
    accountType: state.accountType,
    currency: state.currency,
    available: state.available,
    held: state.held,
    total: state.available + state.held,
    openedAt: state.openedAt,
    updatedAt: state.updatedAt,
  };
}

/** The decided events with their deterministic ids (see eventIdFor). */
function withEventIds(accountId: string, decided: InternalAccountEvent[]): Array<InternalAccountEvent & { id: string }> {
  return decided.map((event) => ({ ...event, id: eventIdFor(accountId, event) }));
}

/** uuid v5 of the movement's business key: the same step appended twice is one event. */
function eventIdFor(accountId: string, event: DomainEvent & InternalAccountEvent): string {
  switch (event.type) {
    case 'InternalAccountOpened':
      return uuidv5(`ledger:${accountId}:opened`);
    case 'FundsCredited':
      return uuidv5(`ledger:${accountId}:credit:${event.data.movementId}`);
    case 'FundsHeld':
      return uuidv5(`ledger:${accountId}:hold:${event.data.holdId}`);
    case 'HoldSettled':
      return uuidv5(`ledger:${accountId}:settle:${event.data.holdId}`);
    case 'HoldReleased':
      return uuidv5(`ledger:${accountId}:release:${event.data.holdId}`);
    case 'HoldVoided':
      return uuidv5(`ledger:${accountId}:void:${event.data.holdId}`);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
