import { AccountsLedger } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { ExistingQuote, QuoteCommand } from '../domain/quote/quote.decider';
import { QuoteStore } from '../quote-store';

/** What happens to the quote's own hold on its source account: it leaves (SETTLE) or goes back (RELEASE). */
export type HoldMovement = { kind: 'SETTLE' } | { kind: 'RELEASE'; reason: string };

/**
 * Records `command`'s events and the movement of the quote's hold in ONE commit, when the quote
 * is as this process knows it and the account accepts the movement. Otherwise nothing is written:
 * `sequential` (no hold, no multi-stream commits, a repeat or a refusal: the caller's
 * movement-then-record path settles it) or `conflict` (the quote moved: read it again). Used by
 * the settlement steps and the refunds that only touch the source account.
 */
export async function commitWithHoldMovement(
  store: QuoteStore,
  ledger: AccountsLedger,
  loaded: { state: ExistingQuote; revision: number | 'no_stream' },
  command: QuoteCommand & { now: string },
  movement: HoldMovement,
): Promise<'settled' | 'sequential' | 'conflict'> {
  const { state, revision } = loaded;
  const accountId = state.funding.sourceAccountId;
  const execution = 'execution' in state ? state.execution : null;
  if (!ledger.supportsAtomicSteps || !accountId || !execution || revision === 'no_stream') return 'sequential';
  let decided: ReturnType<QuoteStore['decideAll']>;
  try {
    decided = store.decideAll(state, [command]);
  } catch (error) {
    if (error instanceof DomainError) return 'sequential';
    throw error;
  }
  if (decided.events.length === 0) return 'sequential';
  const hold = { platformId: state.platformId, accountId, holdId: execution.holdId, now: command.now };
  const companion = { streamName: streamNameFor(state.quoteId), events: decided.events, expectedRevision: revision };
  const outcome =
    movement.kind === 'RELEASE' ? await ledger.releaseHoldWith({ ...hold, reason: movement.reason }, companion) : await ledger.settleHoldWith(hold, companion);
  if (outcome.kind === 'applied') {
    store.recordAppended(decided.state, outcome.companion.nextExpectedRevision);
    return 'settled';
  }
  if (outcome.reason !== 'COMPANION_CONFLICT') return 'sequential';
  store.forget(state.quoteId);
  return 'conflict';
}
