import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../infra/http/api-error';
import { currentContext } from '../../infra/request-context';
import { secretHash } from '../commands/agent-secrets';
import { AgentsQuery } from '../queries/agents.query';

/** Who an agent request comes from: set on the request by AgentAuthGuard. */
export interface AuthenticatedAgent {
  agentId: string;
  platformId: string;
  /** Every agent request is bound to this customer. */
  customerId: string;
}

export type AgentRequest = Request & { agent: AuthenticatedAgent };

const TOKEN_FORM = /^gat_[0-9a-f]{40}$/;

/**
 * AgentAuth (the reference's Bearer scheme) for `/agents/me*`: the token's sha256 hash is looked
 * up in the `agent_tokens` read model on every request, never cached, so a deleted agent or a
 * replaced token stops working in every process as soon as its change is answered. A paused
 * agent authenticates (it may read itself); its actions are refused where they are decided.
 * Routes using it are `@Public()` for the platform guard.
 */
@Injectable()
export class AgentAuthGuard implements CanActivate {
  constructor(private readonly agents: AgentsQuery) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { agent?: AuthenticatedAgent }>();
    const token = bearerToken(request.headers.authorization);
    if (token === null) throw unauthorized(false);
    const holder = TOKEN_FORM.test(token) ? await this.agents.tokenHolder(secretHash(token)) : null;
    if (holder === null) throw unauthorized(true);
    request.agent = holder;
    const requestContext = currentContext();
    if (requestContext) {
      requestContext.platformId = holder.platformId;
      requestContext.actor = `agent:${holder.agentId}`;
    }
    return true;
  }
}

function bearerToken(header: string | undefined): string | null {
  if (!header || !/^Bearer /i.test(header)) return null;
  const token = header.slice(7).trim();
  return token === '' ? null : token;
}

/** RFC 6750 section 3: the challenge names the scheme, and `invalid_token` when one was sent. */
function unauthorized(tokenSent: boolean): ApiError {
  const challenge = tokenSent ? 'Bearer realm="Payments API", error="invalid_token"' : 'Bearer realm="Payments API"';
  return new ApiError('UNAUTHORIZED', 'Missing or invalid agent access token', undefined, { 'WWW-Authenticate': challenge });
}
