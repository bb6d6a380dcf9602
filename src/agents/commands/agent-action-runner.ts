import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { TransferIn, TransferOut } from '../../accounts';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { ExecuteQuote, QuotesQuery } from '../../quotes';
import { lockedAsConflict } from '../../sca';
import { AgentActionRequest } from '../domain/agent-action.events';
import { ExistingAgent } from '../domain/agent.decider';
import { AgentActionOutcome, AgentActionState, isUnsettled } from '../domain/agent-actions';
import { AgentActionView } from '../queries/agent-action.view';
import { AgentActionViews } from '../queries/agent-action-views';
import { AGENT_STREAM } from '../streams';

/** The action after it ran: its view, and the refusal of the underlying operation when it FAILED. */
export interface RunOutcome {
  view: AgentActionView;
  refusal: DomainError | null;
}

/**
 * Who runs the action: the request that submitted or approved it (the fast answer), or the
 * recovery task that guarantees the outcome when that request died (agent-action-process reactor).
 */
export type RunMode = 'REQUEST' | 'RECOVERY';

/** Quote statuses after an execution: the quote's transaction exists. */
const EXECUTED_QUOTE_STATUSES: ReadonlySet<string> = new Set(['PROCESSING', 'COMPLETED', 'FAILED']);

/** The operation ran (EXECUTED or FAILED), or another run of it has not finished yet. */
type Operated = { kind: 'OUTCOME'; outcome: AgentActionOutcome; refusal: DomainError | null } | { kind: 'IN_FLIGHT' };

/**
 * Runs an APPROVED action's underlying operation through the same commands as the platform's
 * routes (ExecuteQuote, TransferOut, TransferIn) and records its outcome on the agent's stream:
 * EXECUTED with the transaction, or FAILED with the refusal's reason, which gives the action's
 * reservation back. Exactly one outcome is recorded (docs/agents.md "Crash safety"): a run first
 * claims the action on the agent's stream; the claiming run executes it. The operation happens
 * once whoever asks, so recovery runs it again when the claiming run died: a quote's transaction
 * is fixed at its creation, a transfer's by the action (`transferTransactionId`).
 */
@Injectable()
export class AgentActionRunner {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly commands: CommandStore,
    private readonly views: AgentActionViews,
    private readonly quotes: QuotesQuery,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async run(agent: ExistingAgent, actionId: string, mode: RunMode = 'REQUEST'): Promise<RunOutcome> {
    const stream = streamNameFor(agent.agentId);
    const runId = randomUUID();
    const claimed = (await this.commands.handle(AGENT_STREAM, stream, { type: 'ClaimAgentActionRun', actionId, runId, now: new Date().toISOString() })).state as ExistingAgent;
    const action = claimed.actions[actionId];
    if (!this.mayRun(action, runId, mode)) return { view: await this.present(claimed, actionId), refusal: null };
    const operated = await this.operate(claimed.platformId, actionId, action.request);
    if (operated.kind === 'IN_FLIGHT') {
      // Another run is executing the quote: the request answers the action as it stands; the
      // recovery task tries again later (a thrown task is retried with backoff).
      if (mode === 'RECOVERY') throw new Error(`The quote of ${actionId} is being executed by another run`);
      return { view: await this.present(claimed, actionId), refusal: null };
    }
    const recorded = await this.commands.handle(AGENT_STREAM, stream, { type: 'RecordAgentActionOutcome', actionId, outcome: operated.outcome, now: new Date().toISOString() });
    return { view: await this.present(recorded.state as ExistingAgent, actionId), refusal: operated.refusal };
  }

  /** The action as the agent's state has it, once the read models show what was written. */
  async present(agent: ExistingAgent, actionId: string): Promise<AgentActionView> {
    await awaitOwnWrites(this.waiter);
    const action = agent.actions[actionId];
    return this.views.present({ ...action, agentId: agent.agentId, platformId: agent.platformId });
  }

  /**
   * The claiming run runs. Recovery also runs an action another run claimed (that run died, or
   * both are decided on the operation's own stream: one executes it, the other finds it done).
   */
  private mayRun(action: AgentActionState, runId: string, mode: RunMode): boolean {
    if (!isUnsettled(action)) return false;
    return action.runId === runId || mode === 'RECOVERY';
  }

  private async operate(platformId: string, actionId: string, request: AgentActionRequest): Promise<Operated> {
    try {
      const transactionId = request.type === 'EXECUTE_QUOTE' ? await this.executeQuote(platformId, request) : await this.transfer(platformId, actionId, request);
      return { kind: 'OUTCOME', outcome: { kind: 'EXECUTED', transactionId }, refusal: null };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (request.type === 'EXECUTE_QUOTE' && isExecutedElsewhere(error)) return this.afterConflict(platformId, request);
      const refusal = lockedAsConflict(error) as DomainError;
      return { kind: 'OUTCOME', outcome: { kind: 'FAILED', code: refusal.code, reason: reasonOf(refusal) }, refusal };
    }
  }

  /** Answers the quote's transaction (fixed when the quote was created). Never an embedded wallet's: no signature. */
  private async executeQuote(platformId: string, request: AgentActionRequest): Promise<string> {
    const quote = await this.commandBus.execute(new ExecuteQuote(platformId, request.quoteId as string, undefined, null));
    return quote.transactionId;
  }

  /**
   * Another execute of the quote was recorded first (a run of this action that died, one still
   * running, or the platform's own execute of the agent's quote). Once the quote shows an execution, its transaction is the
   * action's; until then it is in flight.
   */
  private async afterConflict(platformId: string, request: AgentActionRequest): Promise<Operated> {
    const quote = await this.quotes.findById(platformId, request.quoteId as string);
    if (quote && EXECUTED_QUOTE_STATUSES.has(quote.status)) return { kind: 'OUTCOME', outcome: { kind: 'EXECUTED', transactionId: quote.transactionId }, refusal: null };
    return { kind: 'IN_FLIGHT' };
  }

  /** Answers the transaction the transfer created (or a run before this one did). */
  private async transfer(platformId: string, actionId: string, request: AgentActionRequest): Promise<string> {
    const transfer = request.transfer!;
    const parties = {
      sourceAccountId: transfer.sourceAccountId,
      destinationAccountId: transfer.destinationAccountId,
      paymentRail: transfer.paymentRail,
      amount: transfer.amount,
      ...(transfer.remittanceInformation !== undefined ? { remittanceInformation: transfer.remittanceInformation } : {}),
      ...(transfer.purposeOfPayment !== undefined ? { purposeOfPayment: transfer.purposeOfPayment } : {}),
    };
    const transactionId = transferTransactionId(actionId);
    const command = request.type === 'TRANSFER_OUT' ? new TransferOut(platformId, parties, transactionId) : new TransferIn(platformId, parties, transactionId);
    const transaction = await this.commandBus.execute(command);
    return transaction.id;
  }
}

/** Another execute of the quote was recorded first: it is executed, or being executed. */
function isExecutedElsewhere(error: DomainError): boolean {
  const reason = error.details?.reason;
  return error.code === 'CONFLICT' && (reason === undefined || reason === 'QUOTE_ALREADY_EXECUTED');
}

/** `details.reason` when the refusal has one (QUOTE_EXPIRED, INSUFFICIENT_FUNDS), else its code. */
function reasonOf(error: DomainError): string {
  const reason = error.details?.reason;
  return typeof reason === 'string' ? reason : error.code;
}

/**
 * The transaction of a transfer action: `Transaction:<the action's uuid>`, fixed by the action, so
 * every run of it names the same transfer and a second run answers the first one's.
 */
export function transferTransactionId(actionId: string): string {
  return `Transaction:${actionId.slice(actionId.indexOf(':') + 1)}`;
}
