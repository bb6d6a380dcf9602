import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { RequiresPermission } from '../../infra/http/permissions';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { CompleteFactorReset } from '../commands/complete-factor-reset';
import { RecordSecurityEvent, SecurityEventAnswer } from '../commands/record-security-event';
import { FactorResetStart, StartFactorReset } from '../commands/start-factor-reset';
import { resetNotFound } from '../domain/sca.errors';
import { FactorResetStatusView, ScaFactorResets } from '../sca-factor-resets';
import { CompleteFactorResetDto, RecordSecurityEventDto, StartFactorResetDto } from './sca-reset.dto';
import { customerIdOf, namedCustomer } from './sca.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `/sca/record-event` (the platform's login-security events) and the 2FA reset
 * (`/sca/factors/reset...`). The customer is the `customerId` query parameter; every route
 * answers 409 for customers outside SCA regions.
 */
@Controller('sca')
export class ScaResetController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly resets: ScaFactorResets,
  ) {}

  @Post('record-event')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async recordEvent(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>, @Body() body: unknown): Promise<SecurityEventAnswer> {
    const { value, errors } = checkBody(RecordSecurityEventDto, body);
    const customerId = customerIdOf(errors, query.customerId, undefined);
    throwIfAny(errors);
    return this.commandBus.execute(new RecordSecurityEvent(request.platform.platformId, customerId!, value.eventType));
  }

  @Post('factors/reset')
  @RequiresPermission('MANAGE')
  @HttpCode(201)
  async startReset(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>, @Body() body: unknown): Promise<FactorResetStart> {
    const { value, errors } = checkBody(StartFactorResetDto, body);
    const customerId = customerIdOf(errors, query.customerId, undefined);
    throwIfAny(errors);
    return this.commandBus.execute(new StartFactorReset(request.platform.platformId, customerId!, value.factor));
  }

  /** Declares no 400: a missing or malformed `customerId` names no customer, a malformed reset id no reset (404). */
  @Get('factors/reset/:resetId')
  @RequiresPermission('VIEW')
  async resetStatus(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>, @Param('resetId') resetId: string): Promise<FactorResetStatusView> {
    return this.resets.status(request.platform.platformId, namedCustomer(query.customerId), namedReset(resetId));
  }

  @Post('factors/reset/:resetId/complete')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async completeReset(
    @Req() request: PlatformRequest,
    @Query() query: Record<string, unknown>,
    @Param('resetId') resetId: string,
    @Body() body: unknown,
  ): Promise<void> {
    // The body is optional (only an SMS_OTP reset needs one).
    const { value, errors } = checkBody(CompleteFactorResetDto, body ?? {});
    const customerId = customerIdOf(errors, query.customerId, undefined);
    throwIfAny(errors);
    const mobile = value.mobile ? { countryCode: value.mobile.countryCode, number: value.mobile.number } : null;
    await this.commandBus.execute(new CompleteFactorReset(request.platform.platformId, customerId!, namedReset(resetId), mobile));
  }
}

function namedReset(resetId: string): string {
  if (!parseId('ScaFactorReset', resetId)) throw resetNotFound();
  return resetId;
}
