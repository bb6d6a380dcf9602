import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { RequiresPermission } from '../../infra/http/permissions';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { ConfirmContactVerificationCode } from '../commands/confirm-contact-verification-code';
import { SendContactVerificationCode } from '../commands/send-contact-verification-code';
import { customerNotFound } from '../customers.errors';
import { CustomerView } from '../queries/customer.view';
import { ContactVerificationConfirmDto } from './contact-verification.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** An id that cannot name a customer is one we do not have: 404 (the sends declare no 400). */
function requireCustomerId(customerId: string): void {
  if (!parseId('Customer', customerId)) throw customerNotFound();
}

/**
 * Contact verification (docs/customers.md): a code to the customer's email or phone, then its
 * confirmation. Customers whose provider does not require the channel answer 409.
 */
@Controller('customers')
export class ContactVerificationController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':customerId/verify-email')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async sendEmailCode(@Req() request: PlatformRequest, @Param('customerId') customerId: string): Promise<void> {
    requireCustomerId(customerId);
    await this.commandBus.execute(new SendContactVerificationCode(request.platform.platformId, customerId, 'EMAIL'));
  }

  @Post(':customerId/verify-email/confirm')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async confirmEmail(@Req() request: PlatformRequest, @Param('customerId') customerId: string, @Body() body: unknown): Promise<CustomerView> {
    requireCustomerId(customerId);
    const { value, errors } = checkBody(ContactVerificationConfirmDto, body);
    throwIfAny(errors);
    return this.commandBus.execute(new ConfirmContactVerificationCode(request.platform.platformId, customerId, 'EMAIL', value.code));
  }

  @Post(':customerId/verify-phone')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async sendPhoneCode(@Req() request: PlatformRequest, @Param('customerId') customerId: string): Promise<void> {
    requireCustomerId(customerId);
    await this.commandBus.execute(new SendContactVerificationCode(request.platform.platformId, customerId, 'PHONE'));
  }

  @Post(':customerId/verify-phone/confirm')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async confirmPhone(@Req() request: PlatformRequest, @Param('customerId') customerId: string, @Body() body: unknown): Promise<CustomerView> {
    requireCustomerId(customerId);
    const { value, errors } = checkBody(ContactVerificationConfirmDto, body);
    throwIfAny(errors);
    return this.commandBus.execute(new ConfirmContactVerificationCode(request.platform.platformId, customerId, 'PHONE', value.code));
  }
}
