import { Injectable } from '@nestjs/common';
import { ApiError } from '../../infra/http/api-error';
import { AgentAccessKind, AgentScope, accessRefusal } from '../domain/policy/access';
import { AgentPermission } from '../domain/policy/agent-policy';
import { AgentsQuery } from '../queries/agents.query';
import { AuthenticatedAgent } from './agent-auth.guard';

/**
 * The scope of one agent request (`/agents/me/...` behind AgentAuthGuard): the agent's policy as
 * the read model holds it now, so a policy change, a pause or a resume applies to the next
 * request; 403 when the policy does not open the route (access.ts).
 */
@Injectable()
export class AgentScopes {
  constructor(private readonly agents: AgentsQuery) {}

  async require(agent: AuthenticatedAgent, permission: AgentPermission, kind: AgentAccessKind): Promise<AgentScope> {
    const view = await this.agents.findById(agent.platformId, agent.agentId);
    // The token and the agent leave the read model together; between two reads it may be gone.
    if (!view) throw new ApiError('UNAUTHORIZED', 'Missing or invalid agent access token', undefined, { 'WWW-Authenticate': 'Bearer realm="Payments API", error="invalid_token"' });
    const refusal = accessRefusal(view, permission, kind);
    if (refusal) throw refusal;
    return { platformId: agent.platformId, customerId: agent.customerId, policy: view.policy };
  }
}
