import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { Page, SORT_ORDERS } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { FieldError } from '../../infra/domain/domain-error';
import { IdPrefix, parseId } from '../../infra/ids';
import { ApproveAgentAction, RejectAgentAction } from '../commands/decide-agent-action';
import { AgentActionView } from '../queries/agent-action.view';
import { AgentActionsQuery } from '../queries/agent-actions.query';
import { AgentActionRejectDto } from './agent-actions.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * The platform's decisions on its agents' actions (docs/agents.md "Approvals"): the list of
 * actions waiting for approval, approve (the operation runs) and reject. Approving or rejecting
 * decides whether money moves, so it needs TRANSACT, like `POST /transactions/{id}/approve`.
 */
@Controller('agents')
export class ApprovalsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: AgentActionsQuery,
  ) {}

  /** PENDING_APPROVAL actions, newest first unless `sortOrder=asc`; `startDate`/`endDate` inclusive on submission. */
  @Get('approvals')
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<AgentActionView>> {
    const reader = new QueryReader(query, ['agentId', 'customerId', 'startDate', 'endDate', 'sortOrder']);
    const filters = {
      agentId: reader.id('agentId', 'Agent'),
      customerId: reader.id('customerId', 'Customer'),
      createdAfter: reader.dateTime('startDate'),
      createdBefore: reader.dateTime('endDate'),
      status: 'PENDING_APPROVAL' as const,
    };
    const sortOrder = reader.oneOf('sortOrder', SORT_ORDERS) ?? 'desc';
    const page = reader.page('AgentAction');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page, sortOrder);
  }

  /** 200 with the action: APPROVED with its transaction, or FAILED with `failureReason`. */
  @Post(':agentId/actions/:actionId/approve')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  async approve(@Req() request: PlatformRequest, @Param('agentId') agentId: string, @Param('actionId') actionId: string): Promise<AgentActionView> {
    requirePathIds(agentId, actionId);
    const { view } = await this.commandBus.execute(new ApproveAgentAction(request.platform.platformId, agentId, actionId));
    return view;
  }

  /** The body (AgentActionRejectRequest) is optional; its `reason` is the action's `rejectionReason`. */
  @Post(':agentId/actions/:actionId/reject')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  @ApiBody({ required: false, schema: { $ref: '#/components/schemas/AgentActionRejectDto' } })
  async reject(
    @Req() request: PlatformRequest,
    @Param('agentId') agentId: string,
    @Param('actionId') actionId: string,
    @Body() body: unknown,
  ): Promise<AgentActionView> {
    requirePathIds(agentId, actionId);
    const reason = rejectReason(body);
    return this.commandBus.execute(new RejectAgentAction(request.platform.platformId, agentId, actionId, reason));
  }
}

/** Both path ids, every bad one in one 400 (the same errors as requirePathId). */
function requirePathIds(agentId: string, actionId: string): void {
  const ids: Array<[IdPrefix, string, string]> = [
    ['Agent', 'agentId', agentId],
    ['AgentAction', 'actionId', actionId],
  ];
  const errors: FieldError[] = ids
    .filter(([prefix, , value]) => !parseId(prefix, value))
    .map(([prefix, name]) => ({ field: name, constraint: { format: `${prefix}-id` }, message: `${name} must be a ${prefix}:<uuid> id` }));
  throwIfAny(errors);
}

/** Absent, null or `{}`: no reason. */
function rejectReason(body: unknown): string | null {
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return null;
  const { value, errors } = checkBody(AgentActionRejectDto, body);
  throwIfAny(errors);
  return value.reason ?? null;
}
