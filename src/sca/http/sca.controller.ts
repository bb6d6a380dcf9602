import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { requirePathId } from '../../shared/validation/path-ids';
import { ChallengeFactor } from '../domain/sca-factor';
import { ScaFactorView } from '../queries/sca-factor.view';
import { PasskeyEnrollment, ScaFactorsService } from '../sca-factors.service';
import { LoginStart, ScaLoginService, ScaSessionView } from '../sca-login.service';
import { ConfirmEnrollmentDto, LoginCompleteDto, LoginStartDto, StartEnrollmentDto, checkIdField } from './sca.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `/sca`: SCA factors (passkey enrollment) and SCA login. Every route answers 409 for customers
 * outside SCA regions (DECISIONS.md section 3).
 */
@Controller('sca')
export class ScaController {
  constructor(
    private readonly factors: ScaFactorsService,
    private readonly login: ScaLoginService,
  ) {}

  @Get('factors')
  async listFactors(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<{ data: ScaFactorView[]; availableFactors: ChallengeFactor[] }> {
    const reader = new QueryReader(query, ['customerId']);
    const customerId = reader.id('customerId', 'Customer');
    if (query.customerId === undefined) reader.errors.push({ field: 'customerId', constraint: 'REQUIRED', message: 'customerId is required' });
    reader.done();
    return this.factors.list(request.platform.platformId, customerId!);
  }

  @Post('factors')
  async startEnrollment(@Req() request: PlatformRequest, @Body() body: unknown): Promise<PasskeyEnrollment> {
    const { value, errors } = checkBody(StartEnrollmentDto, body);
    checkIdField(errors, 'customerId', value.customerId, 'Customer');
    throwIfAny(errors);
    return this.factors.startEnrollment(request.platform.platformId, value.customerId, value.nickname ?? null);
  }

  @Post('factors/confirm')
  @HttpCode(200)
  async confirmEnrollment(@Req() request: PlatformRequest, @Body() body: unknown): Promise<ScaFactorView> {
    const { value, errors } = checkBody(ConfirmEnrollmentDto, body);
    checkIdField(errors, 'factorId', value.factorId, 'ScaFactor');
    throwIfAny(errors);
    return this.factors.confirmEnrollment(request.platform.platformId, { factorId: value.factorId, attestation: value.passkeyAttestation, origin: value.origin });
  }

  @Delete('factors/:factorId')
  @HttpCode(204)
  async removeFactor(@Req() request: PlatformRequest, @Param('factorId') factorId: string): Promise<void> {
    requirePathId('ScaFactor', 'factorId', factorId);
    await this.factors.remove(request.platform.platformId, factorId);
  }

  @Post('login/start')
  @HttpCode(200)
  async startLogin(@Req() request: PlatformRequest, @Body() body: unknown): Promise<LoginStart> {
    const { value, errors } = checkBody(LoginStartDto, body);
    checkIdField(errors, 'customerId', value.customerId, 'Customer');
    throwIfAny(errors);
    return this.login.start(request.platform.platformId, value.customerId, value.factor);
  }

  @Post('login/complete')
  @HttpCode(200)
  async completeLogin(@Req() request: PlatformRequest, @Body() body: unknown): Promise<ScaSessionView> {
    const { value, errors } = checkBody(LoginCompleteDto, body);
    checkIdField(errors, 'customerId', value.customerId, 'Customer');
    throwIfAny(errors);
    return this.login.complete(request.platform.platformId, {
      customerId: value.customerId,
      factor: value.factor,
      proof: { code: value.code, passkeyAssertion: value.passkeyAssertion, origin: value.origin },
      endUserIpAddress: value.endUserIpAddress,
    });
  }
}
