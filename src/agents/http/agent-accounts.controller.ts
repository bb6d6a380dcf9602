import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiBearerAuth } from '@nestjs/swagger';
import {
  CreateExternalAccount,
  DeleteExternalAccount,
  ExternalAccountView,
  INTERNAL_ACCOUNT_TYPES,
  InternalAccountView,
  externalAccountNotFound,
  parseExternalAccountBody,
} from '../../accounts';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { QueryReader } from '../../infra/http/query-params';
import { Public } from '../../infra/http/route-metadata';
import { parseId } from '../../infra/ids';
import { AgentAccountsQuery } from '../queries/agent-accounts.query';
import { AgentAuthGuard, AgentRequest } from './agent-auth.guard';
import { AgentScopes } from './agent-scope';

/**
 * The agent's accounts (AgentAuth): its customer's internal accounts with their balances
 * (VIEW_TRANSACTIONS, within the account restrictions) and its customer's external accounts
 * (MANAGE_EXTERNAL_ACCOUNTS), created and deleted by the same commands as the platform's routes.
 */
@Controller('agents/me')
@Public()
@UseGuards(AgentAuthGuard)
@ApiBearerAuth('AgentAuth')
export class AgentAccountsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly scopes: AgentScopes,
    private readonly query: AgentAccountsQuery,
  ) {}

  /** The reference declares no 400 here; a bad filter is one anyway (contract-check.ts lists it). */
  @Get('internal-accounts')
  async listInternalAccounts(@Req() request: AgentRequest, @Query() query: Record<string, unknown>): Promise<Page<InternalAccountView>> {
    const scope = await this.scopes.require(request.agent, 'VIEW_TRANSACTIONS', 'READ');
    const reader = new QueryReader(query, ['currency', 'type']);
    const filters = { type: reader.oneOf('type', INTERNAL_ACCOUNT_TYPES), currency: reader.string('currency', 8) };
    const page = reader.page('InternalAccount');
    reader.done();
    return this.query.listInternal(scope, filters, page);
  }

  @Get('external-accounts')
  async listExternalAccounts(@Req() request: AgentRequest, @Query() query: Record<string, unknown>): Promise<Page<ExternalAccountView>> {
    const scope = await this.scopes.require(request.agent, 'MANAGE_EXTERNAL_ACCOUNTS', 'READ');
    const reader = new QueryReader(query, ['currency']);
    const currency = reader.string('currency', 8);
    const page = reader.page('ExternalAccount');
    reader.done();
    return this.query.listExternal(scope, currency, page);
  }

  /** ExternalAccountCreateRequest; `customerId` may be left out, and is the agent's customer. */
  @Post('external-accounts')
  @ApiBody({ schema: { $ref: '#/components/schemas/CreateExternalAccountDto' } })
  async createExternalAccount(@Req() request: AgentRequest, @Body() body: unknown): Promise<ExternalAccountView> {
    const scope = await this.scopes.require(request.agent, 'MANAGE_EXTERNAL_ACCOUNTS', 'CHANGE');
    const { input, primaryField } = parseForCustomer(body, scope.customerId);
    return this.commandBus.execute(new CreateExternalAccount(scope.platformId, input, primaryField));
  }

  /** The operation declares no 400: an id that cannot name an account names none (404). */
  @Get('external-accounts/:externalAccountId')
  async getExternalAccount(@Req() request: AgentRequest, @Param('externalAccountId') id: string): Promise<ExternalAccountView> {
    const scope = await this.scopes.require(request.agent, 'MANAGE_EXTERNAL_ACCOUNTS', 'READ');
    const view = parseId('ExternalAccount', id) ? await this.query.findExternal(scope, id) : null;
    if (!view) throw externalAccountNotFound();
    return view;
  }

  /**
   * The account's customer never changes, so checking it on the read model before the platform's
   * DeleteExternalAccount (which re-checks that it is live and this platform's) cannot race.
   */
  @Delete('external-accounts/:externalAccountId')
  @HttpCode(204)
  async deleteExternalAccount(@Req() request: AgentRequest, @Param('externalAccountId') id: string): Promise<void> {
    const scope = await this.scopes.require(request.agent, 'MANAGE_EXTERNAL_ACCOUNTS', 'CHANGE');
    if (!parseId('ExternalAccount', id) || !(await this.query.findExternal(scope, id))) throw externalAccountNotFound();
    await this.commandBus.execute(new DeleteExternalAccount(scope.platformId, id));
  }
}

/**
 * The platform route's parse with the customer fixed: a `customerId` other than the agent's
 * customer is one more bad field, listed with the others (the operation declares 400, not 403).
 */
function parseForCustomer(body: unknown, customerId: string): ReturnType<typeof parseExternalAccountBody> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return parseExternalAccountBody(body, 'CUSTOMERS');
  const given = (body as { customerId?: unknown }).customerId;
  const errors: FieldError[] =
    given === undefined || given === customerId ? [] : [{ field: 'customerId', constraint: {}, message: "customerId is the agent's customer: leave it out or give that id" }];
  let parsed: ReturnType<typeof parseExternalAccountBody>;
  try {
    parsed = parseExternalAccountBody({ ...body, customerId }, 'CUSTOMERS');
  } catch (error) {
    // Bad fields come before an identifier's checksum (INVALID_BANK_ACCOUNT), as on the platform route.
    if (errors.length > 0 && error instanceof ValidationError) throw new ValidationError(error.code === 'INVALID_INPUT' ? [...errors, ...error.errors] : errors);
    throw error;
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return parsed;
}
