import { Injectable } from '@nestjs/common';
import { AccountsLedger } from '../../accounts';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { streamNameFor } from '../../infra/ids';
import { cardNotFound } from '../domain/cards.errors';
import { ExistingCard } from '../domain/card/card.decider';
import { CardTransactionCommand, CardTransactionState, cardTransactionDecider } from '../domain/card-transaction/card-transaction.decider';
import { CardTransactionEvent } from '../domain/card-transaction/card-transaction.events';
import { CARD_STREAM, CARD_TRANSACTION_STREAM } from '../streams';
import { accountOf, movementsFor } from './card-transaction-movements';

/** Decisions of one step before giving up with 409 CONFLICT (the transaction or its account kept moving). */
const MAX_STEP_ATTEMPTS = 50;

export type Loaded = { state: CardTransactionState; revision: number | 'no_stream' };

/**
 * What became of a decided step: `committed` (the events and their ledger movements, together),
 * `conflict` (the transaction stream or the account moved first: nothing written, decide again on
 * a fresh read) or `refused` (the ledger refused a movement: nothing written; `error` says why).
 */
export type CommitOutcome =
  | { kind: 'committed'; state: CardTransactionState }
  | { kind: 'conflict' }
  | { kind: 'refused'; error: DomainError };

/**
 * The write path of card transactions: a step's events on the transaction's stream (at the
 * revision they were decided on) and the ledger movements they stand for, in ONE commit where the
 * event store can (`movementsWith`); elsewhere the movements first (each idempotent by its id),
 * then the events.
 */
@Injectable()
export class CardTransactionWriter {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
  ) {}

  /** The card as its stream holds it, when it is this platform's (else 404). */
  async card(platformId: string, cardId: string): Promise<ExistingCard> {
    const { state } = await this.commands.load(CARD_STREAM, streamNameFor(cardId));
    if (state.status === 'none' || state.platformId !== platformId) throw cardNotFound();
    return state;
  }

  load(transactionId: string): Promise<Loaded> {
    return this.commands.load(CARD_TRANSACTION_STREAM, streamNameFor(transactionId));
  }

  async commit(transactionId: string, loaded: Loaded, events: CardTransactionEvent[], platformId: string, now: string): Promise<CommitOutcome> {
    const streamName = streamNameFor(transactionId);
    const movements = movementsFor(loaded.state, events);
    const accountId = accountOf(loaded.state, events);
    const next = () => this.commands.decide(CARD_TRANSACTION_STREAM, loaded.state, events);
    if (movements.length > 0 && accountId !== null) {
      if (this.ledger.supportsAtomicSteps) {
        const companion = { streamName, events, expectedRevision: loaded.revision, metadata: { platformId } };
        const outcome = await this.ledger.movementsWith(platformId, accountId, movements, companion, now);
        if (outcome.kind === 'applied') return { kind: 'committed', state: next() };
        if (outcome.reason === 'REFUSED') return this.refusal(transactionId, loaded, outcome.error ?? new DomainError('INVALID_INPUT', 'The account refused the movement'));
        if (outcome.reason !== 'NOOP' && outcome.reason !== 'UNSUPPORTED') return { kind: 'conflict' };
        // NOOP: the movements are in the ledger already (a repeated step); record the events alone.
      }
      if (!this.ledger.supportsAtomicSteps) {
        try {
          await this.ledger.movements(platformId, accountId, movements);
        } catch (error) {
          if (error instanceof DomainError) return this.refusal(transactionId, loaded, error);
          throw error;
        }
      }
    }
    try {
      await this.commands.commit([{ type: CARD_TRANSACTION_STREAM, state: loaded.state, streamName, events, expectedRevision: loaded.revision, metadata: { platformId } }]);
      return { kind: 'committed', state: next() };
    } catch (error) {
      if (error instanceof ConcurrencyError) return { kind: 'conflict' };
      throw error;
    }
  }

  /**
   * The ledger decides the movements before the commit checks the transaction's revision, so a
   * refusal may come from a stale decision (another clearing captured the hold meanwhile): when
   * the transaction moved, it is a conflict to decide again, not the answer.
   */
  private async refusal(transactionId: string, loaded: Loaded, error: DomainError): Promise<CommitOutcome> {
    const fresh = await this.load(transactionId);
    return fresh.revision === loaded.revision ? { kind: 'refused', error } : { kind: 'conflict' };
  }

  /**
   * A step on an existing transaction: load, decide `build(false)`, commit; on a conflict, again
   * from a fresh read. When the ledger refuses a movement, `build(true)` is decided on the same
   * state when the step records a refused pull (a FAILED post-hoc pull, a FAILED reversal);
   * otherwise the refusal is the answer, with nothing recorded.
   */
  async step(
    platformId: string,
    transactionId: string,
    build: (pullRefused: boolean) => CardTransactionCommand & { now: string },
    recordsRefusal: boolean,
  ): Promise<CardTransactionState> {
    for (let attempt = 1; attempt <= MAX_STEP_ATTEMPTS; attempt++) {
      const loaded = await this.load(transactionId);
      const command = build(false);
      const events = cardTransactionDecider.decide(command, loaded.state);
      if (events.length === 0) return loaded.state;
      let outcome = await this.commit(transactionId, loaded, events, platformId, command.now);
      if (outcome.kind === 'refused' && recordsRefusal) {
        const refused = build(true);
        outcome = await this.commit(transactionId, loaded, cardTransactionDecider.decide(refused, loaded.state), platformId, refused.now);
      }
      if (outcome.kind === 'refused') throw outcome.error;
      if (outcome.kind === 'committed') return outcome.state;
    }
    throw new DomainError('CONFLICT', 'The card transaction was changed concurrently; retry the request');
  }
}
