import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { streamNameFor } from '../../infra/ids';
import { AgentDeviceCodeView } from '../queries/agent.view';
import { AGENT_STREAM } from '../streams';
import { newDeviceCode, secretHash } from './agent-secrets';

/**
 * `POST /agents/{id}/device-codes`: a new code, the unredeemed ones invalidated. Also for an
 * installed agent (reinstalling its software): the new code's redemption replaces its token.
 */
export class RegenerateDeviceCode extends Command<AgentDeviceCodeView> {
  constructor(
    readonly platformId: string,
    readonly agentId: string,
  ) {
    super();
  }
}

@CommandHandler(RegenerateDeviceCode)
export class RegenerateDeviceCodeHandler implements ICommandHandler<RegenerateDeviceCode, AgentDeviceCodeView> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, agentId }: RegenerateDeviceCode): Promise<AgentDeviceCodeView> {
    const code = newDeviceCode();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.agents.deviceCodeLifetimeMs).toISOString();
    await this.commands.handle(AGENT_STREAM, streamNameFor(agentId), { type: 'IssueDeviceCode', platformId, codeHash: secretHash(code), expiresAt, now: now.toISOString() });
    return { code, agentId, expiresAt, redeemed: false };
  }
}
