import { Body, Controller, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiBearerAuth } from '@nestjs/swagger';
import { TransferInDto, TransferOutDto, validTransfer } from '../../accounts';
import { Idempotent, Public } from '../../infra/http/route-metadata';
import { SubmitAgentAction } from '../commands/submit-agent-action';
import { AgentActionView } from '../queries/agent-action.view';
import { AgentAuthGuard, AgentRequest } from './agent-auth.guard';

/**
 * The agent's transfers (AgentAuth, CREATE_TRANSFERS): the bodies of `POST /transfer-out` and
 * `/transfer-in`, submitted as AgentActions under the policy; 201 with the action (APPROVED with
 * its transaction, or PENDING_APPROVAL).
 */
@Controller('agents/me')
@Public()
@UseGuards(AgentAuthGuard)
@ApiBearerAuth('AgentAuth')
export class AgentTransfersController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post('transfer-out')
  @Idempotent()
  @ApiBody({
    schema: { $ref: '#/components/schemas/TransferOutDto' },
    examples: {
      payout: {
        summary: "$125.50 from the customer's account to its own bank account",
        value: {
          source: { accountId: 'InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57' },
          destination: { accountId: 'ExternalAccount:019a2a1e-4d90-7c15-8b3e-f1a2c4d6e8b0' },
          amount: 12550,
        },
      },
    },
  })
  async transferOut(@Req() request: AgentRequest, @Body() body: unknown): Promise<AgentActionView> {
    const dto = validTransfer(TransferOutDto, body, 'InternalAccount', 'ExternalAccount');
    return this.commandBus.execute(
      new SubmitAgentAction(request.agent, {
        kind: 'TRANSFER',
        direction: 'OUT',
        sourceAccountId: dto.source.accountId,
        destinationAccountId: dto.destination.accountId,
        paymentRail: dto.destination.paymentRail ?? null,
        amount: dto.amount,
        remittanceInformation: dto.remittanceInformation,
        purposeOfPayment: dto.purposeOfPayment,
      }),
    );
  }

  @Post('transfer-in')
  @Idempotent()
  @ApiBody({ schema: { $ref: '#/components/schemas/TransferInDto' } })
  async transferIn(@Req() request: AgentRequest, @Body() body: unknown): Promise<AgentActionView> {
    const dto = validTransfer(TransferInDto, body, 'ExternalAccount', 'InternalAccount');
    return this.commandBus.execute(
      new SubmitAgentAction(request.agent, {
        kind: 'TRANSFER',
        direction: 'IN',
        sourceAccountId: dto.source.accountId,
        destinationAccountId: dto.destination.accountId,
        // A pull names no rail (TransferInRequest): the external account's first supported one.
        paymentRail: null,
        amount: dto.amount,
      }),
    );
  }
}
