import { Body, Controller, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { FieldError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { IdPrefix, parseId } from '../../infra/ids';
import { TransferIn } from '../commands/transfer-in';
import { TransferOut } from '../commands/transfer-out';
import { WireTransaction } from '../queries/transaction-wire';
import { TransferInDto, TransferOutDto } from './accounts.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `POST /transfer-out` (internal -> external) and `POST /transfer-in` (external -> internal). */
@Controller()
@RequiresPermission('TRANSACT')
export class TransfersController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post('transfer-out')
  @Idempotent()
  @ApiBody({
    schema: { $ref: '#/components/schemas/TransferOutDto' },
    examples: {
      usdPayout: {
        summary: '$250.00 from a customer account to its own bank account over ACH',
        value: {
          source: { accountId: 'InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57' },
          destination: { accountId: 'ExternalAccount:019a2a1e-4d90-7c15-8b3e-f1a2c4d6e8b0', paymentRail: 'ACH' },
          amount: 25000,
          remittanceInformation: 'Payout 2025-11-03',
          purposeOfPayment: 'SELF',
        },
      },
    },
  })
  async transferOut(@Req() request: PlatformRequest, @Body() body: unknown): Promise<WireTransaction> {
    const dto = validTransfer(TransferOutDto, body, 'InternalAccount', 'ExternalAccount');
    return this.commandBus.execute(
      new TransferOut(request.platform.platformId, {
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
  async transferIn(@Req() request: PlatformRequest, @Body() body: unknown): Promise<WireTransaction> {
    const dto = validTransfer(TransferInDto, body, 'ExternalAccount', 'InternalAccount');
    return this.commandBus.execute(
      new TransferIn(request.platform.platformId, {
        sourceAccountId: dto.source.accountId,
        destinationAccountId: dto.destination.accountId,
        // A pull names no rail (TransferInRequest): the external account's first supported one.
        paymentRail: null,
        amount: dto.amount,
      }),
    );
  }
}

/** The transfer body checked, every bad field in one 400 (the agents' transfer routes take the same bodies). */
export function validTransfer<T extends TransferInDto | TransferOutDto>(
  dto: new () => T,
  body: unknown,
  sourcePrefix: IdPrefix,
  destinationPrefix: IdPrefix,
): T {
  const { value, errors } = checkBody(dto, body);
  const checkId = (field: string, id: string | undefined, prefix: IdPrefix, list: FieldError[]) => {
    if (!hasErrorAt(list, field) && !parseId(prefix, id)) {
      list.push({ field, constraint: { format: `${prefix}-id` }, message: `${field} must be a ${prefix}:<uuid> id` });
    }
  };
  checkId('source.accountId', value.source?.accountId, sourcePrefix, errors);
  checkId('destination.accountId', value.destination?.accountId, destinationPrefix, errors);
  throwIfAny(errors);
  return value;
}
