import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ApiError } from '../../infra/http/api-error';
import { Public } from '../../infra/http/route-metadata';
import { AgentView } from '../queries/agent.view';
import { AgentsQuery } from '../queries/agents.query';
import { AgentAuthGuard, AgentRequest } from './agent-auth.guard';

/**
 * The agent software's own API (`/agents/me*`, AgentAuth Bearer token): public for the platform
 * guard, guarded by AgentAuthGuard, every request bound to the agent's platform and customer.
 * Registered before AgentsController so `/agents/me` is not read as an agent id.
 */
@Controller('agents/me')
@Public()
@UseGuards(AgentAuthGuard)
@ApiBearerAuth('AgentAuth')
export class AgentMeController {
  constructor(private readonly query: AgentsQuery) {}

  /** The agent, its policy and usage; a paused agent reads itself too (`isPaused: true`). */
  @Get()
  async me(@Req() request: AgentRequest): Promise<AgentView> {
    const view = await this.query.findById(request.agent.platformId, request.agent.agentId);
    // The token and the agent leave the read model together; between two reads it may be gone.
    if (!view) throw new ApiError('UNAUTHORIZED', 'Missing or invalid agent access token', undefined, { 'WWW-Authenticate': 'Bearer realm="Payments API", error="invalid_token"' });
    return view;
  }
}
