import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { TransferIn, TransferOut } from '../../accounts';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { ExecuteQuote } from '../../quotes';
import { lockedAsConflict } from '../../sca';
import { AgentActionRequest } from '../domain/agent-action.events';
import { ExistingAgent } from '../domain/agent.decider';
import { AgentActionOutcome } from '../domain/agent-actions';
import { AgentActionView } from '../queries/agent-action.view';
import { AgentActionViews } from '../queries/agent-action-views';
import { AGENT_STREAM } from '../streams';

/** The action after it ran: its view, and the refusal of the underlying operation when it FAILED. */
export interface RunOutcome {
  view: AgentActionView;
  refusal: DomainError | null;
}

/**
 * Runs an APPROVED action's underlying operation through the same commands as the platform's
 * routes (ExecuteQuote, TransferOut, TransferIn) and records its outcome on the agent's stream:
 * EXECUTED with the transaction, or FAILED with the refusal's reason, which gives the action's
 * reservation back. An unexpected error (not a refusal) leaves the action APPROVED without a
 * transaction and propagates (docs/agents.md "Actions and policy").
 */
@Injectable()
export class AgentActionRunner {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly commands: CommandStore,
    private readonly views: AgentActionViews,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async run(agent: ExistingAgent, actionId: string, signatureHeader?: string | string[]): Promise<RunOutcome> {
    const action = agent.actions[actionId];
    let outcome: AgentActionOutcome;
    let refusal: DomainError | null = null;
    try {
      outcome = { kind: 'EXECUTED', transactionId: await this.operate(agent.platformId, action.request, signatureHeader) };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refusal = lockedAsConflict(error) as DomainError;
      outcome = { kind: 'FAILED', code: refusal.code, reason: reasonOf(refusal) };
    }
    const recorded = await this.commands.handle(AGENT_STREAM, streamNameFor(agent.agentId), { type: 'RecordAgentActionOutcome', actionId, outcome, now: new Date().toISOString() });
    return { view: await this.present(recorded.state as ExistingAgent, actionId), refusal };
  }

  /** The action as the agent's state has it, once the read models show what was written. */
  async present(agent: ExistingAgent, actionId: string): Promise<AgentActionView> {
    await awaitOwnWrites(this.waiter);
    const action = agent.actions[actionId];
    return this.views.present({ ...action, agentId: agent.agentId, platformId: agent.platformId });
  }

  /** Answers the transaction the operation created. */
  private async operate(platformId: string, request: AgentActionRequest, signatureHeader: string | string[] | undefined): Promise<string> {
    if (request.type === 'EXECUTE_QUOTE') {
      const quote = await this.commandBus.execute(new ExecuteQuote(platformId, request.quoteId as string, signatureHeader, null));
      return quote.transactionId;
    }
    const transfer = request.transfer!;
    const parties = {
      sourceAccountId: transfer.sourceAccountId,
      destinationAccountId: transfer.destinationAccountId,
      paymentRail: transfer.paymentRail,
      amount: transfer.amount,
      ...(transfer.remittanceInformation !== undefined ? { remittanceInformation: transfer.remittanceInformation } : {}),
      ...(transfer.purposeOfPayment !== undefined ? { purposeOfPayment: transfer.purposeOfPayment } : {}),
    };
    const command = request.type === 'TRANSFER_OUT' ? new TransferOut(platformId, parties) : new TransferIn(platformId, parties);
    const transaction = await this.commandBus.execute(command);
    return transaction.id;
  }
}

/** `details.reason` when the refusal has one (QUOTE_EXPIRED, INSUFFICIENT_FUNDS), else its code. */
function reasonOf(error: DomainError): string {
  const reason = error.details?.reason;
  return typeof reason === 'string' ? reason : error.code;
}
