import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { WithdrawalFeeEstimate, WithdrawalFeesQuery } from '../queries/withdrawal-fees.query';
import { parseWithdrawalFeeBody } from './withdrawal-fee.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /crypto/estimate-withdrawal-fee`: a read with a body (an estimate records nothing, so it
 * is neither idempotent-keyed nor a command). 200 with the fees, 404 for an account that is not
 * this platform's.
 */
@Controller('crypto')
@RequiresPermission('VIEW')
export class WithdrawalFeeController {
  constructor(private readonly withdrawalFees: WithdrawalFeesQuery) {}

  @Post('estimate-withdrawal-fee')
  @HttpCode(200)
  @ApiBody({
    schema: { $ref: '#/components/schemas/EstimateWithdrawalFeeDto' },
    examples: {
      usdcOnSolana: {
        summary: 'Ten USDC from a crypto account to a Solana wallet',
        value: {
          internalAccountId: 'InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57',
          currency: 'USDC',
          cryptoNetwork: 'SOLANA',
          amount: 10000000,
          destinationAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
        },
      },
    },
  })
  async estimate(@Req() request: PlatformRequest, @Body() body: unknown): Promise<WithdrawalFeeEstimate> {
    return this.withdrawalFees.estimate(request.platform.platformId, parseWithdrawalFeeBody(body));
  }
}
