import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiBearerAuth } from '@nestjs/swagger';
import { DomainError } from '../../infra/domain/domain-error';
import { Idempotent, Public } from '../../infra/http/route-metadata';
import { parseId } from '../../infra/ids';
import { QuoteView, QuotesQuery, parseQuoteRequest } from '../../quotes';
import { requirePathId } from '../../shared/validation/path-ids';
import { CreateAgentQuote } from '../commands/create-agent-quote';
import { SubmitAgentAction } from '../commands/submit-agent-action';
import { AgentActionView } from '../queries/agent-action.view';
import { AgentActionsQuery } from '../queries/agent-actions.query';
import { AgentAuthGuard, AgentRequest } from './agent-auth.guard';

/**
 * The agent's quotes (AgentAuth): created with the platform's CreateQuote for the agent's
 * customer (CREATE_QUOTES), read only by the agent that created them, executed as an AgentAction
 * under the policy (EXECUTE_QUOTES; docs/agents.md "Actions and policy").
 */
@Controller('agents/me/quotes')
@Public()
@UseGuards(AgentAuthGuard)
@ApiBearerAuth('AgentAuth')
export class AgentQuotesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly quotes: QuotesQuery,
    private readonly actions: AgentActionsQuery,
  ) {}

  @Post()
  @Idempotent()
  // parseQuoteRequest validates the source and destination variants on top of this DTO.
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateQuoteDto' },
    examples: {
      payout: {
        summary: "$100.00 from the customer's USD account to its own euro bank account",
        value: {
          source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57' },
          destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:019a2a1c-0f3b-7e44-9a61-d27c5b80e3f9' },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 10000,
        },
      },
    },
  })
  async create(@Req() request: AgentRequest, @Body() body: unknown): Promise<QuoteView> {
    return this.commandBus.execute(new CreateAgentQuote(request.agent, parseQuoteRequest(body)));
  }

  /** The operation declares no 400: an id that cannot name a quote, or another's quote, is 404. */
  @Get(':quoteId')
  async get(@Req() request: AgentRequest, @Param('quoteId') quoteId: string): Promise<QuoteView> {
    const { platformId, agentId } = request.agent;
    const own = parseId('Quote', quoteId) !== null && (await this.actions.isAgentsQuote(platformId, agentId, quoteId));
    const quote = own ? await this.quotes.findById(platformId, quoteId) : null;
    if (!quote) throw new DomainError('QUOTE_NOT_FOUND', 'Quote not found');
    return quote;
  }

  /** 200 with the AgentAction: APPROVED with its transaction, or PENDING_APPROVAL. */
  @Post(':quoteId/execute')
  @HttpCode(200)
  @Idempotent()
  async execute(@Req() request: AgentRequest, @Param('quoteId') quoteId: string): Promise<AgentActionView> {
    requirePathId('Quote', 'quoteId', quoteId);
    // No Service-Wallet-Signature is passed on: an embedded-wallet source is refused (docs/agents.md).
    return this.commandBus.execute(new SubmitAgentAction(request.agent, { kind: 'EXECUTE_QUOTE', quoteId }));
  }
}
