import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ExternalAccountsQuery, InternalAccountsQuery } from '../../accounts';
import { CommandStore } from '../../infra/commands/command-store';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { parseId, streamNameFor } from '../../infra/ids';
import { CreateQuote, QuoteRequest, QuoteView } from '../../quotes';
import { agentNotFound } from '../domain/agents.errors';
import { policyRefusal } from '../domain/agent-actions';
import { evaluateAccess } from '../domain/policy/evaluation';
import { AGENT_STREAM } from '../streams';
import { ActingAgentRef } from './agent-action-requests';

/** `POST /agents/me/quotes`: the platform's CreateQuote for the agent's customer, recorded as the agent's. */
export class CreateAgentQuote extends Command<QuoteView> {
  constructor(
    readonly agent: ActingAgentRef,
    readonly request: QuoteRequest,
  ) {
    super();
  }
}

/**
 * CREATE_QUOTES, not paused (403 otherwise); the source must be an internal account of the
 * agent's customer and an account ACCOUNT destination the customer's too (400 naming the field:
 * the operation declares no 404), the source allowed by the account restrictions (403
 * ACCOUNT_NOT_ALLOWED). An agent creates quotes only: `immediatelyExecute` would bypass the
 * execute's policy check and `platformFeeOverride` is the platform's own pricing, so both are
 * field errors. A quote creates no usage: its execution does (docs/agents.md).
 */
@CommandHandler(CreateAgentQuote)
export class CreateAgentQuoteHandler implements ICommandHandler<CreateAgentQuote, QuoteView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly commandBus: CommandBus,
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly externalAccounts: ExternalAccountsQuery,
  ) {}

  async execute({ agent, request }: CreateAgentQuote): Promise<QuoteView> {
    const stream = streamNameFor(agent.agentId);
    const loaded = await this.commands.load(AGENT_STREAM, stream);
    if (loaded.state.status !== 'active') throw agentNotFound();
    const denied = evaluateAccess(loaded.state, 'CREATE_QUOTES', null);
    if (denied) throw policyRefusal(denied);
    const errors = await this.fieldErrors(agent, request);
    if (errors.length > 0) throw new ValidationError(errors);
    const sourceAccountId = (request.source as { accountId: string }).accountId;
    const restricted = evaluateAccess(loaded.state, 'CREATE_QUOTES', sourceAccountId);
    if (restricted) throw policyRefusal(restricted);
    const quote = await this.commandBus.execute(new CreateQuote(agent.platformId, request));
    await this.commands.handle(AGENT_STREAM, stream, { type: 'RecordAgentQuote', quoteId: quote.id, now: new Date().toISOString() });
    return quote;
  }

  private async fieldErrors(agent: ActingAgentRef, request: QuoteRequest): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    const refuse = (field: string, message: string) => errors.push({ field, constraint: {}, message });
    if (request.source.sourceType !== 'ACCOUNT') refuse('source.sourceType', "An agent's quote is funded from an internal account of its customer (ACCOUNT)");
    else if (!(await this.isCustomers(agent, request.source.accountId))) refuse('source.accountId', "source.accountId is not an internal account of the agent's customer");
    if (request.destination.destinationType === 'ACCOUNT' && !(await this.isCustomers(agent, request.destination.accountId))) {
      refuse('destination.accountId', "destination.accountId is not an account of the agent's customer");
    }
    if (request.immediatelyExecute) refuse('immediatelyExecute', 'An agent executes its quotes with POST /agents/me/quotes/{quoteId}/execute');
    if (request.platformFeeOverride !== null) refuse('platformFeeOverride', 'platformFeeOverride is not available to agents');
    return errors;
  }

  /** An internal or external account of the agent's customer (unknown and another's alike: false). */
  private async isCustomers(agent: ActingAgentRef, accountId: string): Promise<boolean> {
    if (parseId('InternalAccount', accountId)) return (await this.internalAccounts.findDetails(agent.platformId, accountId))?.customerId === agent.customerId;
    if (parseId('ExternalAccount', accountId)) return (await this.externalAccounts.findById(agent.platformId, accountId))?.customerId === agent.customerId;
    return false;
  }
}
