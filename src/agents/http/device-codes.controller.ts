import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Public } from '../../infra/http/route-metadata';
import { canonicalDeviceCode, secretHash } from '../commands/agent-secrets';
import { RedeemDeviceCode } from '../commands/redeem-device-code';
import { deviceCodeNotFound } from '../domain/agents.errors';
import { AgentDeviceCodeRedeemedView, AgentDeviceCodeStatusView } from '../queries/agent.view';
import { AgentsQuery } from '../queries/agents.query';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * The installation flow (docs/agents.md "Device codes"): the platform polls a code's status with
 * its credentials; the agent software redeems it with none (the code is the authority).
 */
@Controller('agents/device-codes')
export class DeviceCodesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: AgentsQuery,
  ) {}

  /** Another platform's code answers 404 like an unknown one. */
  @Get(':code/status')
  @RequiresPermission('VIEW')
  async status(@Req() request: PlatformRequest, @Param('code') code: string): Promise<AgentDeviceCodeStatusView> {
    const canonical = canonicalDeviceCode(code);
    const entry = canonical === null ? null : await this.query.deviceCodeByHash(secretHash(canonical));
    if (entry === null || entry.platformId !== request.platform.platformId) throw deviceCodeNotFound();
    return { code: canonical as string, redeemed: entry.status === 'REDEEMED' };
  }

  /** No platform credentials; failed attempts are limited per source address (the TCP peer). */
  @Post(':code/redeem')
  @Public()
  @HttpCode(200)
  async redeem(@Req() request: Request, @Param('code') code: string): Promise<AgentDeviceCodeRedeemedView> {
    return this.commandBus.execute(new RedeemDeviceCode(code, request.socket.remoteAddress ?? 'unknown'));
  }
}
