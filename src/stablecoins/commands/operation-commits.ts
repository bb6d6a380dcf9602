import { Injectable } from '@nestjs/common';
import { AccountsLedger, insufficientFunds, isInsufficientFunds } from '../../accounts';
import type { AtomicMovement } from '../../accounts';
import { CommandStore, DecidedAppend } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { streamNameFor } from '../../infra/ids';
import { currentContext } from '../../infra/request-context';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { ExistingOperation, OperationCommand } from '../domain/operation/operation.decider';
import { OperationLedgerPlan } from '../domain/operation/operation.events';
import { StablecoinCommand } from '../domain/stablecoin/stablecoin.decider';
import { STABLECOIN_OPERATION_STREAM, STABLECOIN_STREAM } from '../streams';

/** The task that gives back what an opening cut short left (EventStoreDB only; key: the operation id). */
export const STABLECOIN_OPEN_CHECK_TASK = 'stablecoin.operation-open-check';
/**
 * How long after an opening began its check runs: far longer than any request lives, so the
 * opening it checks is finished or dead by then.
 */
export const OPEN_CHECK_DELAY_MS = 10 * 60 * 1000;
/** Why a hold is given back when its operation fails, expires or never got recorded. */
const RELEASE_REASON = 'STABLECOIN_OPERATION_ENDED';

type CreateOperation = Extract<OperationCommand, { type: 'CreateOperation' }>;
type EndOperation = Extract<OperationCommand, { type: 'FailOperation' | 'ExpireOperation' }>;
type LedgerBatch = { accountId: string; movements: AtomicMovement[] };

/**
 * Writes each step of an operation so that a crash leaves nothing half done (docs/stablecoins.md,
 * "Crash safety"). Where the event store commits several streams at once (Postgres) a step is ONE
 * commit: its ledger movements, the coin's supply and the operation. Elsewhere (EventStoreDB) the
 * parts go in turn, each idempotent by the operation id, the operation's own event last: a step's
 * task runs again until that event is written, and an opening is checked by a task scheduled
 * before its first write (`recoverOpening`).
 */
@Injectable()
export class OperationCommits {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
    private readonly tasks: TaskScheduler,
  ) {}

  /** The coin's reservation, the hold of an internal source and the operation's record. */
  async open(create: CreateOperation, hold: OperationLedgerPlan['hold']): Promise<ExistingOperation> {
    const { platformId, operationId, stablecoinId, operationType, amount, createdAt: now } = create;
    const opening: StablecoinCommand = { type: 'OpenOperation', platformId, operationId, operationType, amount, now };
    if (!this.ledger.supportsAtomicSteps) return this.openInTurn(create, opening, hold);
    const batches: LedgerBatch[] = hold ? [{ accountId: hold.accountId, movements: [{ kind: 'HOLD', holdId: operationId, amount: hold.amount, reference: operationId }] }] : [];
    try {
      await this.commitStep(platformId, batches, async () => [await this.coinAppend(stablecoinId, opening), await this.operationAppend(operationId, create)], now);
    } catch (error) {
      if (hold && isInsufficientFunds(error)) throw insufficientFunds({ accountId: hold.accountId, requested: hold.amount });
      throw error;
    }
    return (await this.commands.load(STABLECOIN_OPERATION_STREAM, streamNameFor(operationId))).state as ExistingOperation;
  }

  /** The hold settled, the credit paid, the supply changed, the operation COMPLETED. */
  async complete(operation: ExistingOperation, now: string): Promise<void> {
    const { platformId, operationId, ledger } = operation;
    const batches: LedgerBatch[] = [];
    if (ledger.hold) batches.push({ accountId: ledger.hold.accountId, movements: [{ kind: 'SETTLE', holdId: operationId }] });
    if (ledger.credit) {
      const credit = { kind: 'CREDIT' as const, movementId: operationId, amount: ledger.credit.amount, reason: 'STABLECOIN_MINT', reference: operationId };
      batches.push({ accountId: ledger.credit.accountId, movements: [credit] });
    }
    const settle: StablecoinCommand = { type: 'SettleOperation', operationId, now };
    if (this.ledger.supportsAtomicSteps) {
      return this.commitStep(platformId, batches, async () => [await this.coinAppend(operation.stablecoinId, settle), await this.operationAppend(operationId, { type: 'CompleteOperation', now })], now);
    }
    if (ledger.hold) await this.ledger.settleHold({ platformId, accountId: ledger.hold.accountId, holdId: operationId });
    if (ledger.credit) await this.ledger.credit({ platformId, accountId: ledger.credit.accountId, movementId: operationId, amount: ledger.credit.amount, reason: 'STABLECOIN_MINT', reference: operationId });
    await this.commands.handle(STABLECOIN_STREAM, streamNameFor(operation.stablecoinId), settle);
    await this.commands.handle(STABLECOIN_OPERATION_STREAM, streamNameFor(operationId), { type: 'CompleteOperation', now });
  }

  /** Failed or expired: the hold released, the reservation given back, the operation ended. */
  async end(operation: ExistingOperation, command: EndOperation): Promise<void> {
    const { platformId, operationId, ledger } = operation;
    const abandon: StablecoinCommand = { type: 'AbandonOperation', operationId, now: command.now };
    if (this.ledger.supportsAtomicSteps) {
      const batches: LedgerBatch[] = ledger.hold ? [{ accountId: ledger.hold.accountId, movements: [{ kind: 'RELEASE', holdId: operationId, reason: RELEASE_REASON }] }] : [];
      return this.commitStep(platformId, batches, async () => [await this.coinAppend(operation.stablecoinId, abandon), await this.operationAppend(operationId, command)], command.now);
    }
    if (ledger.hold) await this.ledger.releaseHold({ platformId, accountId: ledger.hold.accountId, holdId: operationId, reason: RELEASE_REASON });
    await this.commands.handle(STABLECOIN_STREAM, streamNameFor(operation.stablecoinId), abandon);
    await this.commands.handle(STABLECOIN_OPERATION_STREAM, streamNameFor(operationId), command);
  }

  /**
   * The check of an opening made in turn: once the operation is recorded, nothing to do (its
   * steps take it from there); otherwise the opening died part-way, so its hold is voided (given
   * back, or refused should the dead opening's hold still arrive) and its reservation given back.
   */
  async recoverOpening(check: { platformId: string; operationId: string; stablecoinId: string; holdAccountId: string | null }): Promise<void> {
    const { state } = await this.commands.load(STABLECOIN_OPERATION_STREAM, streamNameFor(check.operationId));
    if (state.status !== 'none') return;
    const { platformId, operationId, holdAccountId } = check;
    if (holdAccountId) await this.ledger.voidHold({ platformId, accountId: holdAccountId, holdId: operationId, reason: RELEASE_REASON });
    await this.commands.handle(STABLECOIN_STREAM, streamNameFor(check.stablecoinId), { type: 'AbandonOperation', operationId, now: new Date().toISOString() }, { metadata: { platformId } });
  }

  /** EventStoreDB: the check is scheduled first, then the reservation, the hold (a refusal gives the reservation back) and the record. */
  private async openInTurn(create: CreateOperation, opening: StablecoinCommand, hold: OperationLedgerPlan['hold']): Promise<ExistingOperation> {
    const { platformId, operationId, stablecoinId } = create;
    const context = currentContext();
    await this.tasks.schedule(STABLECOIN_OPEN_CHECK_TASK, operationId, OPEN_CHECK_DELAY_MS, {
      subjectId: operationId,
      platformId,
      stablecoinId,
      holdAccountId: hold?.accountId ?? null,
      correlationId: context?.correlationId ?? operationId,
      causationId: context?.causationId ?? operationId,
    });
    await this.commands.handle(STABLECOIN_STREAM, streamNameFor(stablecoinId), opening);
    if (hold) {
      try {
        await this.ledger.hold({ platformId, accountId: hold.accountId, holdId: operationId, amount: hold.amount, reference: operationId });
      } catch (error) {
        await this.commands.handle(STABLECOIN_STREAM, streamNameFor(stablecoinId), { type: 'AbandonOperation', operationId, now: new Date().toISOString() });
        if (isInsufficientFunds(error)) throw insufficientFunds({ accountId: hold.accountId, requested: hold.amount });
        throw error;
      }
    }
    return (await this.commands.handle(STABLECOIN_OPERATION_STREAM, streamNameFor(operationId), create)).state as ExistingOperation;
  }

  /**
   * One commit of the ledger's movements (none, or already made: the streams alone) and the
   * appends `decide` answers on fresh reads; re-decided when a stream moved meanwhile, as the
   * coin's stream type says (its attempts and pauses). Appends deciding nothing are left out.
   */
  private async commitStep(platformId: string, batches: LedgerBatch[], decide: () => Promise<DecidedAppend[]>, now: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const appends = (await decide()).filter((append) => append.events.length > 0);
      if (appends.length === 0 || (await this.tryCommit(platformId, batches, appends, now))) return;
      if (attempt >= (STABLECOIN_STREAM.maxAttempts ?? 5)) throw new DomainError('CONFLICT', STABLECOIN_STREAM.conflictMessage ?? 'Retry the request');
      const pauseMs = STABLECOIN_STREAM.conflictBackoffMs?.(attempt) ?? 0;
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }

  /** True once committed; false when a stream moved first (nothing written). */
  private async tryCommit(platformId: string, batches: LedgerBatch[], appends: DecidedAppend[], now: string): Promise<boolean> {
    if (batches.length > 0) {
      const outcome = await this.ledger.movementsAcrossWith(platformId, batches, appends, now);
      if (outcome.kind === 'applied') return true;
      if (outcome.reason === 'REFUSED') throw outcome.error ?? new DomainError('INVALID_STATE_TRANSITION', 'The ledger refused the step');
      if (outcome.reason !== 'NOOP') return false;
    }
    try {
      await this.commands.commit(appends);
      return true;
    } catch (error) {
      if (error instanceof ConcurrencyError) return false;
      throw error;
    }
  }

  private async coinAppend(stablecoinId: string, command: StablecoinCommand): Promise<DecidedAppend> {
    const streamName = streamNameFor(stablecoinId);
    const { state, revision } = await this.commands.load(STABLECOIN_STREAM, streamName);
    return { type: STABLECOIN_STREAM, state, streamName, events: STABLECOIN_STREAM.decider.decide(command, state), expectedRevision: revision };
  }

  private async operationAppend(operationId: string, command: OperationCommand): Promise<DecidedAppend> {
    const streamName = streamNameFor(operationId);
    const { state, revision } = await this.commands.load(STABLECOIN_OPERATION_STREAM, streamName);
    return { type: STABLECOIN_OPERATION_STREAM, state, streamName, events: STABLECOIN_OPERATION_STREAM.decider.decide(command, state), expectedRevision: revision };
  }
}
