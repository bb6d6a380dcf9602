import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { deviceCodeNotFound } from '../domain/agents.errors';
import { ExistingAgent } from '../domain/agent.decider';
import { AgentDeviceCodeRedeemedView } from '../queries/agent.view';
import { AgentsQuery } from '../queries/agents.query';
import { AGENT_STREAM } from '../streams';
import { canonicalDeviceCode, newAccessToken, secretHash } from './agent-secrets';
import { RedeemAttempts } from './redeem-attempts';

/** `POST /agents/device-codes/{code}/redeem`: no platform credentials, the code is the authority. */
export class RedeemDeviceCode extends Command<AgentDeviceCodeRedeemedView> {
  constructor(
    readonly code: string,
    /** The TCP peer, for the failed-attempt limit. */
    readonly sourceAddress: string,
  ) {
    super();
  }
}

/**
 * Finds the agent by the code's hash, then decides on the agent's stream (single use, expiry,
 * newest code only): two concurrent redemptions of one code give one token, the other is refused
 * as already redeemed. The events record the agent software as their actor. Every refusal (404
 * or 400) counts against the source address (RedeemAttempts).
 */
@CommandHandler(RedeemDeviceCode)
export class RedeemDeviceCodeHandler implements ICommandHandler<RedeemDeviceCode, AgentDeviceCodeRedeemedView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly agents: AgentsQuery,
    private readonly attempts: RedeemAttempts,
  ) {}

  async execute({ code, sourceAddress }: RedeemDeviceCode): Promise<AgentDeviceCodeRedeemedView> {
    await this.attempts.assertNotLocked(sourceAddress);
    try {
      return await this.redeem(code);
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'REFERENCE_NOT_FOUND' || error.code === 'INVALID_INPUT')) await this.attempts.countFailure(sourceAddress);
      throw error;
    }
  }

  private async redeem(code: string): Promise<AgentDeviceCodeRedeemedView> {
    const canonical = canonicalDeviceCode(code);
    if (canonical === null) throw deviceCodeNotFound();
    const codeHash = secretHash(canonical);
    const entry = await this.agents.deviceCodeByHash(codeHash);
    if (entry === null) throw deviceCodeNotFound();
    const accessToken = newAccessToken();
    const result = await this.commands.handle(
      AGENT_STREAM,
      streamNameFor(entry.agentId),
      { type: 'RedeemDeviceCode', codeHash, tokenHash: secretHash(accessToken), now: new Date().toISOString() },
      { metadata: { actor: `agent:${entry.agentId}`, platformId: entry.platformId } },
    );
    const agent = result.state as ExistingAgent;
    return { agentId: agent.agentId, agentName: agent.name, accessToken, policy: agent.policy };
  }
}
