import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { Page } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { CreateAgent } from '../commands/create-agent';
import { DeleteAgent } from '../commands/delete-agent';
import { RegenerateDeviceCode } from '../commands/regenerate-device-code';
import { AgentChanges, UpdateAgent } from '../commands/update-agent';
import { UpdateAgentPolicy } from '../commands/update-agent-policy';
import { agentNotFound } from '../domain/agents.errors';
import { AgentCreatedView, AgentDeviceCodeView, AgentView } from '../queries/agent.view';
import { AgentsQuery } from '../queries/agents.query';
import { CreateAgentDto, UpdateAgentDto, UpdateAgentPolicyDto } from './agents.dto';
import { checkPolicyFields, toPolicy, toPolicyUpdate } from './policy-fields';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * Agent management with platform credentials (docs/agents.md): create, list, get, rename or
 * pause, delete, change the policy, issue a new device code. No Idempotency-Key on the POSTs:
 * a stored answer would keep the device code (a credential); a platform that lost an answer
 * finds the agent in `GET /agents?customerId=` and issues a new code.
 */
@Controller('agents')
export class AgentsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: AgentsQuery,
  ) {}

  @Post()
  @RequiresPermission('MANAGE')
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateAgentDto' },
    examples: {
      payroll: {
        summary: 'An agent that pays out up to $500 a transfer, asking above $1,000',
        value: {
          name: 'Payroll Automation Agent',
          customerId: 'Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21',
          policy: {
            permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
            defaultExecutionMode: 'AUTO',
            spendingLimits: { currency: 'USD', perTransactionLimit: 50000, dailyLimit: 500000, dailyTransactionLimit: 10 },
            approvalThresholds: { currency: 'USD', amount: 100000 },
          },
        },
      },
    },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<AgentCreatedView> {
    const { value, errors } = checkBody(CreateAgentDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    if (!hasErrorAt(errors, 'customerId') && !parseId('Customer', value.customerId)) {
      errors.push({ field: 'customerId', constraint: { format: 'Customer-id' }, message: 'customerId must be a Customer:<uuid> id' });
    }
    // Semantic checks of the policy's fields that have no shape error, so every bad field is listed at once.
    if (value.policy !== null && typeof value.policy === 'object') checkPolicyFields(value.policy, 'policy', errors);
    throwIfAny(errors);
    return this.commandBus.execute(new CreateAgent(request.platform.platformId, { name: value.name, customerId: value.customerId, policy: toPolicy(value.policy) }));
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<AgentView>> {
    const reader = new QueryReader(query, ['customerId', 'isPaused', 'isConnected', 'createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore']);
    const filters = {
      customerId: reader.id('customerId', 'Customer'),
      isPaused: reader.boolean('isPaused'),
      isConnected: reader.boolean('isConnected'),
      createdAfter: reader.dateTime('createdAfter'),
      createdBefore: reader.dateTime('createdBefore'),
      updatedAfter: reader.dateTime('updatedAfter'),
      updatedBefore: reader.dateTime('updatedBefore'),
    };
    const page = reader.page('Agent');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  /** GET declares no 400: an id that cannot name an agent is an agent that does not exist. */
  @Get(':agentId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('agentId') agentId: string): Promise<AgentView> {
    if (!parseId('Agent', agentId)) throw agentNotFound();
    const view = await this.query.findById(request.platform.platformId, agentId);
    if (!view) throw agentNotFound();
    return view;
  }

  @Patch(':agentId')
  @RequiresPermission('MANAGE')
  async update(@Req() request: PlatformRequest, @Param('agentId') agentId: string, @Body() body: unknown): Promise<AgentView> {
    requirePathId('Agent', 'agentId', agentId);
    const { value, errors } = checkBody(UpdateAgentDto, body);
    if (errors.length === 0 && value.name === undefined && value.isPaused === undefined) {
      errors.push({ field: 'body', constraint: {}, message: 'Give at least one of name, isPaused' });
    }
    throwIfAny(errors);
    const changes: AgentChanges = {};
    if (value.name !== undefined) changes.name = value.name;
    if (value.isPaused !== undefined) changes.isPaused = value.isPaused;
    return this.commandBus.execute(new UpdateAgent(request.platform.platformId, agentId, changes));
  }

  /** DELETE declares no 400: a malformed id is an agent that does not exist. */
  @Delete(':agentId')
  @HttpCode(204)
  @RequiresPermission('MANAGE')
  async remove(@Req() request: PlatformRequest, @Param('agentId') agentId: string): Promise<void> {
    if (!parseId('Agent', agentId)) throw agentNotFound();
    await this.commandBus.execute(new DeleteAgent(request.platform.platformId, agentId));
  }

  @Patch(':agentId/policy')
  @RequiresPermission('MANAGE')
  async updatePolicy(@Req() request: PlatformRequest, @Param('agentId') agentId: string, @Body() body: unknown): Promise<AgentView> {
    requirePathId('Agent', 'agentId', agentId);
    const { value, errors } = checkBody(UpdateAgentPolicyDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    checkPolicyFields(value, '', errors);
    if (errors.length === 0 && Object.values(toPolicyUpdate(value)).length === 0) {
      errors.push({ field: 'body', constraint: {}, message: 'Give at least one policy field' });
    }
    throwIfAny(errors);
    return this.commandBus.execute(new UpdateAgentPolicy(request.platform.platformId, agentId, toPolicyUpdate(value)));
  }

  @Post(':agentId/device-codes')
  @RequiresPermission('MANAGE')
  async regenerateDeviceCode(@Req() request: PlatformRequest, @Param('agentId') agentId: string): Promise<AgentDeviceCodeView> {
    requirePathId('Agent', 'agentId', agentId);
    return this.commandBus.execute(new RegenerateDeviceCode(request.platform.platformId, agentId));
  }
}
