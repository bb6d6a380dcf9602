import { Injectable } from '@nestjs/common';
import { CommandStore } from '../../infra/commands/command-store';
import { streamType } from '../../infra/commands/stream-type';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { parseId, streamNameFor, uuidv5 } from '../../infra/ids';
import {
  AtomicOpenOutcome,
  AtomicStepOutcome,
  CompanionAppend,
  CreditInput,
  HoldInput,
  HoldRef,
  LedgerAccountSnapshot,
  LedgerStepResult,
  OpenAccountInput,
} from './ledger-movements';
import {
  InternalAccountCommand,
  InternalAccountState,
  OpenAccount,
  accountNotFound,
  internalAccountDecider,
} from '../domain/internal-account/internal-account.decider';
import { InternalAccountEvent, InternalAccountType } from '../domain/internal-account/internal-account.events';

export type { LedgerAccountSnapshot, LedgerStepResult, OpenAccountInput, CreditInput, HoldInput, HoldRef, CompanionAppend, AtomicStepOutcome, AtomicOpenOutcome } from './ledger-movements';

/** Decisions of an atomic step: on the cached state, then once more after catching up. */
const MAX_ATOMIC_ATTEMPTS = 2;
const STREAM_PREFIX = 'internalAccount-';

/**
 * Account streams in the command store: hot (every quote holds and settles on one), so their
 * state stays in memory and commands on one account queue inside this process; across processes
 * the expected revision decides, with a short jittered pause before re-deciding. Event ids come
 * from each movement's business key, so a step appended twice is stored once.
 */
export const INTERNAL_ACCOUNT_STREAM = streamType({
  name: 'internal account',
  decider: internalAccountDecider,
  maxAttempts: 100,
  conflictBackoffMs: (attempt) => Math.min(50, attempt * 2) * Math.random(),
  conflictMessage: 'The account is too busy; retry the request',
  cacheSize: 10_000,
  serialize: true,
  eventId: (stream, event) => eventIdFor(`InternalAccount:${stream.slice(STREAM_PREFIX.length)}`, event),
});

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
  constructor(private readonly commands: CommandStore) {}

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
      // Opened stays opened (a closed account too): an open one cached is open (and the read models are waited for up to it).
      if (this.commands.cached(INTERNAL_ACCOUNT_STREAM, stream)?.state.status === 'open') continue;
      const { state } = await this.load(stream);
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
    if (!this.supportsAtomicSteps) return { kind: 'declined', reason: 'UNSUPPORTED' };
    const initial = internalAccountDecider.initialState();
    const opens = inputs.map((input) => ({
      type: INTERNAL_ACCOUNT_STREAM,
      state: initial,
      streamName: this.streamFor(input.accountId),
      events: internalAccountDecider.decide(openCommand(input), initial),
      expectedRevision: 'no_stream' as const,
      metadata: { platformId: input.platformId },
    }));
    return this.commands.serialized(INTERNAL_ACCOUNT_STREAM, opens.map((open) => open.streamName), async () => {
      try {
        const appended = await this.commands.commit([...opens, companion]);
        return { kind: 'applied', companion: appended[appended.length - 1] };
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        return { kind: 'declined', reason: error.streamName === companion.streamName ? 'COMPANION_CONFLICT' : 'ACCOUNT_CONFLICT' };
      }
    });
  }

  /** Whether the `...With` steps can commit anything (the event store has multi-stream appends). */
  get supportsAtomicSteps(): boolean {
    return this.commands.events.supportsAtomicMultiAppend;
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
   * A cancellation's refund: gives the hold back and records `companion` (the cancellation) with
   * it, in one commit where the event store can; when the hold is back already, or the store has no
   * multi-stream commits, releases and then runs `recordAlone`. Answers the companion stream's new
   * revision, or null when that stream or the account moved first (the caller decides again). The
   * ledger settles the race with a settlement: a settled hold throws `settled()`.
   */
  async releaseHoldRecording(
    hold: HoldRef & { reason: string; now: string },
    companion: CompanionAppend,
    recordAlone: () => Promise<number>,
    settled: () => DomainError,
  ): Promise<number | null> {
    const atomic = await this.releaseHoldWith(hold, companion);
    if (atomic.kind === 'applied') return atomic.companion.nextExpectedRevision;
    if (atomic.reason === 'COMPANION_CONFLICT' || atomic.reason === 'ACCOUNT_CONFLICT') return null;
    if (atomic.reason === 'REFUSED') throw settled();
    try {
      await this.releaseHold(hold);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'INVALID_STATE_TRANSITION') throw settled();
      throw error;
    }
    try {
      return await recordAlone();
    } catch (error) {
      if (error instanceof ConcurrencyError) return null;
      throw error;
    }
  }

  /**
   * The balances this process last knew for the account, without reading the stream when it has
   * them (they may miss another process's latest movement): for checks that a later ledger step
   * enforces anyway, such as refusing a quote from an obviously short account. Falls back to
   * `snapshot`.
   */
  async recentSnapshot(input: { platformId: string; accountId: string }): Promise<LedgerAccountSnapshot> {
    const cached = this.commands.cached(INTERNAL_ACCOUNT_STREAM, this.streamFor(input.accountId));
    if (cached && cached.state.status === 'open' && cached.state.platformId === input.platformId) return snapshotOf(cached.state);
    return this.snapshot(input);
  }

  /** The account's balances read from its stream (authoritative, unlike the read model). */
  async snapshot(input: { platformId: string; accountId: string }): Promise<LedgerAccountSnapshot> {
    const { state } = await this.load(this.streamFor(input.accountId));
    if (state.status !== 'open' || state.platformId !== input.platformId) throw accountNotFound();
    return snapshotOf(state);
  }

  /** The hold's status, or null when nothing was ever held under this id. */
  async holdStatus(input: HoldRef): Promise<{ amount: number; status: 'HELD' | 'SETTLED' | 'RELEASED' | 'VOIDED' } | null> {
    const { state } = await this.load(this.streamFor(input.accountId));
    if (state.status !== 'open' || state.platformId !== input.platformId) throw accountNotFound();
    const hold = state.holds[input.holdId];
    return hold ? { ...hold } : null;
  }

  private streamFor(accountId: string): string {
    if (!parseId('InternalAccount', accountId)) throw accountNotFound();
    return streamNameFor(accountId);
  }

  /** The account's state read in turn with its commands (caught up from the cache). */
  private load(stream: string) {
    return this.commands.serialized(INTERNAL_ACCOUNT_STREAM, [stream], () => this.commands.load(INTERNAL_ACCOUNT_STREAM, stream));
  }

  private async step(
    platformId: string,
    accountId: string,
    options: { allowNew?: boolean },
    command: InternalAccountCommand,
  ): Promise<LedgerStepResult> {
    const handled = await this.commands.handle(INTERNAL_ACCOUNT_STREAM, this.streamFor(accountId), command, {
      check: (state) => {
        if (state.status === 'open' && state.platformId !== platformId) throw accountNotFound();
        if (state.status === 'none' && !options.allowNew) throw accountNotFound();
      },
      // The account's platform is the tenant of its movements, whoever asks (a reactor, a task).
      metadata: { platformId },
    });
    return { ...snapshotOf(handled.state as OpenAccount), applied: handled.events.length > 0 };
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
    if (!this.supportsAtomicSteps) return { kind: 'declined', reason: 'UNSUPPORTED' };
    const stream = this.streamFor(accountId);
    return this.commands.serialized(INTERNAL_ACCOUNT_STREAM, [stream], async () => {
      for (let attempt = 1; attempt <= MAX_ATOMIC_ATTEMPTS; attempt++) {
        const cached = attempt === 1 ? this.commands.cached(INTERNAL_ACCOUNT_STREAM, stream) : undefined;
        const { state, revision } = cached ?? (await this.commands.load(INTERNAL_ACCOUNT_STREAM, stream));
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
          const [, companionAppended] = await this.commands.commit([
            // The account's platform is the tenant of its movements, whoever asks.
            { type: INTERNAL_ACCOUNT_STREAM, state, streamName: stream, events: decided, expectedRevision: revision, metadata: { platformId } },
            companion,
          ]);
          const next = this.commands.decide(INTERNAL_ACCOUNT_STREAM, state, decided) as OpenAccount;
          return { kind: 'applied', account: { ...snapshotOf(next), applied: true }, companion: companionAppended };
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          if (error.streamName !== stream) return { kind: 'declined', reason: 'COMPANION_CONFLICT' };
        }
      }
      return { kind: 'declined', reason: 'ACCOUNT_CONFLICT' };
    });
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
    status: state.accountStatus,
    available: state.available,
    held: state.held,
    total: state.available + state.held,
    openedAt: state.openedAt,
    updatedAt: state.updatedAt,
  };
}

/** uuid v5 of the movement's business key: the same step appended twice is one event. */
function eventIdFor(accountId: string, event: InternalAccountEvent): string {
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
    case 'InternalAccountStatusChanged':
      return uuidv5(`ledger:${accountId}:status:${event.data.status}:${event.data.changedAt}`);
  }
}
