import { Controller, Get, Param, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { DomainError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { QueryReader } from '../../infra/http/query-params';
import { Public } from '../../infra/http/route-metadata';
import { parseId } from '../../infra/ids';
import { AgentActionView } from '../queries/agent-action.view';
import { AgentActionsQuery } from '../queries/agent-actions.query';
import { AGENT_ACTION_STATUSES } from './agent-actions.dto';
import { AgentAuthGuard, AgentRequest } from './agent-auth.guard';

/**
 * The agent's own actions (AgentAuth; no permission needed: an agent polls what it submitted,
 * paused or not). Newest first; another agent's action is 404 like an unknown one.
 */
@Controller('agents/me/actions')
@Public()
@UseGuards(AgentAuthGuard)
@ApiBearerAuth('AgentAuth')
export class AgentActionsController {
  constructor(private readonly query: AgentActionsQuery) {}

  @Get()
  async list(@Req() request: AgentRequest, @Query() query: Record<string, unknown>): Promise<Page<AgentActionView>> {
    const reader = new QueryReader(query, ['status']);
    const status = reader.oneOf('status', AGENT_ACTION_STATUSES);
    const page = reader.page('AgentAction');
    reader.done();
    return this.query.list(request.agent.platformId, { agentId: request.agent.agentId, status }, page, 'desc');
  }

  /** The operation declares no 400: an id that cannot name an action names none (404). */
  @Get(':actionId')
  async get(@Req() request: AgentRequest, @Param('actionId') actionId: string): Promise<AgentActionView> {
    const { platformId, agentId } = request.agent;
    const action = parseId('AgentAction', actionId) ? await this.query.findForAgent(platformId, agentId, actionId) : null;
    if (!action) throw new DomainError('REFERENCE_NOT_FOUND', 'Agent action not found');
    return action;
  }
}
