import { Body, Controller, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { FieldError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { IdPrefix, parseId } from '../../infra/ids';
import { TransactionView } from '../queries/transaction.view';
import { TransfersService } from '../transfers/transfers.service';
import { TransferDto } from './accounts.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `POST /transfer-out` (internal -> external) and `POST /transfer-in` (external -> internal). */
@Controller()
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  @Post('transfer-out')
  @Idempotent()
  async transferOut(@Req() request: PlatformRequest, @Body() body: unknown): Promise<TransactionView> {
    const dto = validTransfer(body, 'InternalAccount', 'ExternalAccount');
    return this.transfers.transferOut(request.platform.platformId, {
      sourceAccountId: dto.source.accountId,
      destinationAccountId: dto.destination.accountId,
      paymentRail: dto.destination.paymentRail ?? null,
      amount: dto.amount,
    });
  }

  @Post('transfer-in')
  @Idempotent()
  async transferIn(@Req() request: PlatformRequest, @Body() body: unknown): Promise<TransactionView> {
    const dto = validTransfer(body, 'ExternalAccount', 'InternalAccount');
    return this.transfers.transferIn(request.platform.platformId, {
      sourceAccountId: dto.source.accountId,
      destinationAccountId: dto.destination.accountId,
      paymentRail: dto.destination.paymentRail ?? null,
      amount: dto.amount,
    });
  }
}

function validTransfer(body: unknown, sourcePrefix: IdPrefix, destinationPrefix: IdPrefix): TransferDto {
  const { value, errors } = checkBody(TransferDto, body);
  const checkId = (field: string, id: string | undefined, prefix: IdPrefix, list: FieldError[]) => {
    if (!hasErrorAt(list, field) && !parseId(prefix, id)) {
      list.push({ field, constraint: 'FORMAT', message: `${field} must be a ${prefix}:<uuid> id` });
    }
  };
  checkId('source.accountId', value.source?.accountId, sourcePrefix, errors);
  checkId('destination.accountId', value.destination?.accountId, destinationPrefix, errors);
  throwIfAny(errors);
  return value;
}
