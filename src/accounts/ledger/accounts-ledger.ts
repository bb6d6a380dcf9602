import { Injectable } from '@nestjs/common';
import { CommandStore, DecidedAppend } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { parseId, streamNameFor } from '../../infra/ids';
import {
  AdjustHoldInput,
  AtomicOpenOutcome,
  AtomicStepOutcome,
  CaptureInput,
  CompanionAppend,
  CreditInput,
  DebitInput,
  HoldInput,
  HoldRef,
  LedgerAccountSnapshot,
  LedgerMovement,
  LedgerStepResult,
  OpenAccountInput,
} from './ledger-movements';
import { INTERNAL_ACCOUNT_STREAM, movementCommand, openCommand, snapshotOf } from './ledger-stream';
import { InternalAccountCommand, OpenAccount, accountNotFound, internalAccountDecider, scratchState } from '../domain/internal-account/internal-account.decider';
import { InternalAccountEvent } from '../domain/internal-account/internal-account.events';

export type {
  LedgerAccountSnapshot,
  LedgerStepResult,
  OpenAccountInput,
  CreditInput,
  HoldInput,
  HoldRef,
  CaptureInput,
  AdjustHoldInput,
  DebitInput,
  LedgerMovement,
  CompanionAppend,
  AtomicStepOutcome,
  AtomicOpenOutcome,
} from './ledger-movements';
export { INTERNAL_ACCOUNT_STREAM } from './ledger-stream';

/** Decisions of an atomic step: on the cached state, then once more after catching up. */
const MAX_ATOMIC_ATTEMPTS = 2;

/**
 * The ledger of internal accounts: one stream per account, every movement an event whose id is
 * derived from its business key, so each step is idempotent. Concurrency: work on one account is
 * serialised inside this process, and across processes by the expected revision (on a conflict
 * the step is re-read and re-decided). Balances never go negative: a hold, a hold's increase or
 * a debit larger than the available balance is refused with 400 INSUFFICIENT_FUNDS.
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

  /** `amount` (1..remaining) of the hold leaves the account; the rest stays held (a hold at 0 is done). */
  async capture(input: CaptureInput): Promise<LedgerStepResult> {
    return this.movements(input.platformId, input.accountId, [{ kind: 'CAPTURE', holdId: input.holdId, captureId: input.captureId, amount: input.amount }]);
  }

  /** The hold's remainder becomes `amount`; an increase is 400 INSUFFICIENT_FUNDS when available is short. */
  async adjustHold(input: AdjustHoldInput): Promise<LedgerStepResult> {
    return this.movements(input.platformId, input.accountId, [{ kind: 'ADJUST', holdId: input.holdId, adjustmentId: input.adjustmentId, amount: input.amount }]);
  }

  /** `amount` leaves available directly; INSUFFICIENT_FUNDS when short, refused on an account not ACTIVE. */
  async debit(input: DebitInput): Promise<LedgerStepResult> {
    return this.movements(input.platformId, input.accountId, [
      { kind: 'DEBIT', movementId: input.movementId, amount: input.amount, reason: input.reason, reference: input.reference },
    ]);
  }

  /**
   * The movements applied one after the other, each its own step (idempotent by its id, so a
   * retry after a failure part-way applies the rest once): for event stores without multi-stream
   * commits, where `movementsWith` declines. Answers the account after the last one; `applied`
   * when any of them moved something.
   */
  async movements(platformId: string, accountId: string, movements: LedgerMovement[]): Promise<LedgerStepResult> {
    let result: LedgerStepResult | undefined;
    let applied = false;
    for (const movement of movements) {
      result = await this.step(platformId, accountId, {}, movementCommand(movement, new Date().toISOString()));
      applied ||= result.applied;
    }
    return { ...(result ?? (await this.snapshot({ platformId, accountId }))), applied };
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

  /**
   * Several movements on ONE account and the caller's companion events (one append or several:
   * other streams, each at its expected revision) in ONE commit, all or nothing: decided in order,
   * each on the account as the ones before it left it (see `decideWith`). Movements already
   * applied decide nothing; when none moves anything the step is declined NOOP. A refusal of any
   * movement declines the whole batch REFUSED with the decider's error (e.g. code
   * INSUFFICIENT_FUNDS), nothing written. The outcome's `companion` is the first companion's append.
   */
  async movementsWith(platformId: string, accountId: string, movements: LedgerMovement[], companion: Companions, now: string): Promise<AtomicStepOutcome> {
    return this.movementsAcrossWith(platformId, [{ accountId, movements }], companion, now);
  }

  /**
   * `movementsWith` over several accounts of the platform (e.g. a hold settled on one, SETTLE as
   * `settleHold`, and a credit on another) and the companions, all in ONE commit; the outcome's
   * `account` is the first one.
   */
  async movementsAcrossWith(platformId: string, batches: Array<{ accountId: string; movements: AtomicMovement[] }>, companion: Companions, now: string): Promise<AtomicStepOutcome> {
    const commandOf = (movement: AtomicMovement): InternalAccountCommand =>
      movement.kind === 'SETTLE' ? { type: 'SettleHold', holdId: movement.holdId, now } : movementCommand(movement, now);
    return this.decideWith(platformId, batches.map(({ accountId, movements }) => ({ accountId, commands: movements.map(commandOf) })), companion);
  }

  /** `hold`, committed with `companion` in one transaction (see `decideWith`). */
  async holdWith(input: HoldInput & { now: string }, companion: CompanionAppend): Promise<AtomicStepOutcome> {
    return this.movementsWith(input.platformId, input.accountId, [{ kind: 'HOLD', holdId: input.holdId, amount: input.amount, reference: input.reference }], companion, input.now);
  }

  /** `settleHold`, committed with `companion` in one transaction (see `decideWith`). */
  async settleHoldWith(input: HoldRef & { now: string }, companion: CompanionAppend): Promise<AtomicStepOutcome> {
    return this.movementsAcrossWith(input.platformId, [{ accountId: input.accountId, movements: [{ kind: 'SETTLE', holdId: input.holdId }] }], companion, input.now);
  }

  /** `releaseHold`, committed with `companion` in one transaction (see `decideWith`). */
  async releaseHoldWith(input: HoldRef & { reason: string; now: string }, companion: CompanionAppend): Promise<AtomicStepOutcome> {
    return this.movementsWith(input.platformId, input.accountId, [{ kind: 'RELEASE', holdId: input.holdId, reason: input.reason }], companion, input.now);
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

  /**
   * The hold's status, or null when nothing was ever held under this id: `amount` as placed,
   * `remaining` what it still holds (after captures and adjustments; 0 once done).
   */
  async holdStatus(input: HoldRef): Promise<{ amount: number; remaining: number; status: 'HELD' | 'SETTLED' | 'RELEASED' | 'VOIDED' } | null> {
    const { state } = await this.load(this.streamFor(input.accountId));
    if (state.status !== 'open' || state.platformId !== input.platformId) throw accountNotFound();
    const hold = state.holds[input.holdId];
    return hold ? { amount: hold.amount, remaining: hold.remaining, status: hold.status } : null;
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
   * Commands on (distinct) accounts and the caller's companion events in ONE commit, when the
   * accounts accept them as they stand: decided in order under the accounts' locks, each on the state the
   * ones before it left (a scratch copy: the cached state moves only once the commit succeeded),
   * first on the cached state, and once more on the stream (caught up) when that refuses or the
   * account moved under another process. A refusal is declined REFUSED with the decider's error,
   * a batch that moves nothing NOOP, a companion conflict COMPANION_CONFLICT: nothing written and
   * the cache untouched (still a true state at its revision), for the caller to settle.
   */
  private async decideWith(platformId: string, batches: AccountCommands[], companion: Companions): Promise<AtomicStepOutcome> {
    if (!this.supportsAtomicSteps) return { kind: 'declined', reason: 'UNSUPPORTED' };
    const companions = Array.isArray(companion) ? companion : [companion];
    const streams = batches.map((batch) => this.streamFor(batch.accountId));
    return this.commands.serialized(INTERNAL_ACCOUNT_STREAM, streams, async () => {
      for (let attempt = 1; attempt <= MAX_ATOMIC_ATTEMPTS; attempt++) {
        const decided = await this.decideBatches(platformId, batches, streams, attempt === 1);
        if (decided === 'RETRY') continue;
        if (decided instanceof DomainError) return { kind: 'declined', reason: 'REFUSED', error: decided };
        if (decided.appends.length === 0) return { kind: 'declined', reason: 'NOOP' };
        try {
          const appended = await this.commands.commit([...decided.appends, ...companions]);
          return { kind: 'applied', account: { ...snapshotOf(decided.first), applied: true }, companion: appended[decided.appends.length] };
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          if (!streams.includes(error.streamName ?? '')) return { kind: 'declined', reason: 'COMPANION_CONFLICT' };
        }
      }
      return { kind: 'declined', reason: 'ACCOUNT_CONFLICT' };
    });
  }

  /**
   * Each account's commands decided on its cached state (`fromCache`) or its stream: the appends
   * that move something and the first account's state after them, or a refusal (RETRY on memory).
   */
  private async decideBatches(platformId: string, batches: AccountCommands[], streams: string[], fromCache: boolean) {
    const appends: DecidedAppend[] = [];
    let first: OpenAccount | undefined;
    for (const [index, batch] of batches.entries()) {
      const cached = fromCache ? this.commands.cached(INTERNAL_ACCOUNT_STREAM, streams[index]) : undefined;
      const { state, revision } = cached ?? (await this.commands.load(INTERNAL_ACCOUNT_STREAM, streams[index]));
      if (state.status !== 'open' || state.platformId !== platformId || revision === 'no_stream') return accountNotFound();
      const decision = decideAll(state, batch.commands);
      if (decision instanceof DomainError) return cached ? ('RETRY' as const) : decision;
      first ??= decision.state;
      // The account's platform is the tenant of its movements, whoever asks.
      if (decision.events.length > 0) appends.push({ type: INTERNAL_ACCOUNT_STREAM, state, streamName: streams[index], events: decision.events, expectedRevision: revision, metadata: { platformId } });
    }
    return { appends, first: first as OpenAccount };
  }
}

type AccountCommands = { accountId: string; commands: InternalAccountCommand[] };
/** A companion append of an atomic step, or several (each at its own expected revision). */
export type Companions = CompanionAppend | CompanionAppend[];
export type AtomicMovement = LedgerMovement | { kind: 'SETTLE'; holdId: string };

/** The commands decided in turn on a scratch copy of `state` (left as it is), or the first refusal. */
function decideAll(state: OpenAccount, commands: InternalAccountCommand[]): { state: OpenAccount; events: InternalAccountEvent[] } | DomainError {
  let scratch = scratchState(state);
  const events: InternalAccountEvent[] = [];
  try {
    for (const command of commands) {
      const decided = internalAccountDecider.decide(command, scratch);
      for (const event of decided) scratch = internalAccountDecider.evolve(scratch, event) as OpenAccount;
      events.push(...decided);
    }
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  return { state: scratch, events };
}

