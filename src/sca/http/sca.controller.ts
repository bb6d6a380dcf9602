import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { parseId } from '../../infra/ids';
import { FieldError } from '../../infra/domain/domain-error';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { CompleteScaLogin, ScaSessionView } from '../commands/complete-sca-login';
import { ConfirmPasskeyEnrollment, ConfirmedFactor } from '../commands/confirm-passkey-enrollment';
import { ConfirmTotpEnrollment, TotpEnrollmentConfirmation } from '../commands/confirm-totp-enrollment';
import { RemoveScaFactor } from '../commands/remove-sca-factor';
import { PasskeyEnrollment, StartPasskeyEnrollment } from '../commands/start-passkey-enrollment';
import { LoginStart, StartScaLogin } from '../commands/start-sca-login';
import { StartTotpEnrollment, TotpEnrollmentStart } from '../commands/start-totp-enrollment';
import { lockedAsConflict, scaFactorNotFound } from '../domain/sca.errors';
import { ScaFactorList, ScaFactorsService } from '../sca-factors.service';
import { ConfirmEnrollmentDto, LoginCompleteDto, LoginStartDto, StartEnrollmentDto, checkIdField, customerIdOf, namedCustomer } from './sca.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `/sca`: SCA factors (TOTP and passkey enrollment) and SCA login. Every route answers 409 for customers
 * outside SCA regions (DECISIONS.md section 3).
 */
@Controller('sca')
export class ScaController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly factors: ScaFactorsService,
  ) {}

  /**
   * The list declares no 400: a missing or malformed `customerId` names no customer (404
   * USER_NOT_FOUND), and other query parameters are not read.
   */
  @Get('factors')
  @RequiresPermission('VIEW')
  async listFactors(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<ScaFactorList> {
    return this.factors.list(request.platform.platformId, namedCustomer(query.customerId));
  }

  /** 200 as the contract answers it: the factor is not enrolled until `/sca/factors/confirm`. */
  @Post('factors')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async startEnrollment(
    @Req() request: PlatformRequest,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<PasskeyEnrollment | TotpEnrollmentStart> {
    const { value, errors } = checkBody(StartEnrollmentDto, body);
    const customerId = customerIdOf(errors, query.customerId, value.customerId);
    throwIfAny(errors);
    const { platformId } = request.platform;
    const nickname = value.nickname ?? null;
    if (value.type === 'TOTP') return rethrowLockAsConflict(this.commandBus.execute(new StartTotpEnrollment(platformId, customerId!, nickname)));
    return rethrowLockAsConflict(this.commandBus.execute(new StartPasskeyEnrollment(platformId, customerId!, nickname)));
  }

  @Post('factors/confirm')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async confirmEnrollment(
    @Req() request: PlatformRequest,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<ConfirmedFactor | TotpEnrollmentConfirmation> {
    const { value, errors } = checkBody(ConfirmEnrollmentDto, body);
    if (value.type === 'TOTP') {
      // The secret names the enrollment, the customer says whose.
      const customerId = customerIdOf(errors, query.customerId, value.customerId);
      requireFields(errors, value, { secret: 'secret is required: the secret POST /sca/factors answered', code: 'code is required: the code the authenticator app shows' });
      refuseFields(errors, value, ['factorId', 'credential', 'passkeyAttestation', 'origin'], 'is only for PASSKEY confirmations');
      throwIfAny(errors);
      return this.commandBus.execute(new ConfirmTotpEnrollment(request.platform.platformId, { customerId: customerId!, secret: value.secret!, code: value.code! }));
    }
    refuseFields(errors, value, ['secret', 'code'], 'is only for TOTP confirmations');
    requireFields(errors, value, { origin: 'origin is required: the origin the attestation ran against' });
    if (value.factorId !== undefined) checkIdField(errors, 'factorId', value.factorId, 'ScaFactor');
    // Named by factorId (earlier clients) or by the customer (the contract).
    const customerId = value.factorId !== undefined && query.customerId === undefined && value.customerId === undefined ? null : customerIdOf(errors, query.customerId, value.customerId);
    if (value.credential !== undefined && value.passkeyAttestation !== undefined) {
      errors.push({ field: 'passkeyAttestation', constraint: {}, message: 'Give the attestation once, as credential' });
    } else if (value.credential === undefined && value.passkeyAttestation === undefined && !hasErrorAt(errors, 'credential')) {
      errors.push({ field: 'credential', constraint: {}, message: 'credential is required: the attestation navigator.credentials.create() returned' });
    }
    throwIfAny(errors);
    return this.commandBus.execute(
      new ConfirmPasskeyEnrollment(request.platform.platformId, {
        factorId: value.factorId ?? null,
        customerId,
        attestation: value.credential ?? value.passkeyAttestation,
        origin: value.origin!,
      }),
    );
  }

  /**
   * `id`: the factor's `ScaFactor:` id, or the passkey's WebAuthn credential id with `customerId`.
   * The delete declares no 400: a malformed factor id names no factor (404 REFERENCE_NOT_FOUND),
   * a missing or malformed `customerId` no customer (404 USER_NOT_FOUND).
   */
  @Delete('factors/:factorId')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async removeFactor(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>, @Param('factorId') factorId: string): Promise<void> {
    if (factorId.startsWith('ScaFactor:') && !parseId('ScaFactor', factorId)) throw scaFactorNotFound();
    const customerId = query.customerId === undefined && factorId.startsWith('ScaFactor:') ? null : namedCustomer(query.customerId);
    await this.commandBus.execute(new RemoveScaFactor(request.platform.platformId, factorId, customerId));
  }

  @Post('login/start')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  async startLogin(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>, @Body() body: unknown): Promise<LoginStart> {
    const { value, errors } = checkBody(LoginStartDto, body);
    const customerId = customerIdOf(errors, query.customerId, value.customerId);
    throwIfAny(errors);
    return rethrowLockAsConflict(this.commandBus.execute(new StartScaLogin(request.platform.platformId, customerId!, value.factor)));
  }

  @Post('login/complete')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  async completeLogin(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>, @Body() body: unknown): Promise<ScaSessionView> {
    const { value, errors } = checkBody(LoginCompleteDto, body);
    const customerId = customerIdOf(errors, query.customerId, value.customerId);
    throwIfAny(errors);
    return this.commandBus.execute(
      new CompleteScaLogin(request.platform.platformId, {
        customerId: customerId!,
        factor: value.factor,
        challengeId: value.challengeId ?? null,
        proof: { code: value.code ?? undefined, passkeyAssertion: value.passkeyAssertion ?? undefined, origin: value.origin ?? undefined },
        endUserIpAddress: value.endUserIpAddress,
      }),
    );
  }
}

/** `/sca/login/start` and `POST /sca/factors` declare no 423: a lock is a 409 there. */
async function rethrowLockAsConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw lockedAsConflict(error);
  }
}

/** Adds a `{field}` error for each of `fields` the body lacks (and that has no error yet). */
function requireFields<T extends object>(errors: FieldError[], value: T, fields: Partial<Record<keyof T & string, string>>): void {
  for (const [field, message] of Object.entries(fields) as Array<[keyof T & string, string]>) {
    if (value[field] === undefined && !hasErrorAt(errors, field)) errors.push({ field, constraint: {}, message });
  }
}

/** Adds an error for each of `fields` the body has although its `type` does not take it. */
function refuseFields<T extends object>(errors: FieldError[], value: T, fields: Array<keyof T & string>, why: string): void {
  for (const field of fields) {
    if (value[field] !== undefined && !hasErrorAt(errors, field)) errors.push({ field, constraint: {}, message: `${field} ${why}` });
  }
}
