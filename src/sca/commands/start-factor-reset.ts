import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { ApiError } from '../../infra/http/api-error';
import { newId, streamNameFor } from '../../infra/ids';
import { countInFixedWindow } from '../../infra/postgres/fixed-window-counter';
import { PG_POOL } from '../../infra/postgres/pool';
import { ProfileState, activePasskey } from '../domain/profile/profile.decider';
import { ScaFactor } from '../domain/sca-factor';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';
import { SCA_RATE_LIMIT_TABLE } from '../sca-rate-limiter';
import { SCA_FACTOR_RESET_STREAM } from '../streams';

/** Reset starts per customer per window (the reference: 5 per 24 hours). */
export const FACTOR_RESET_BUDGET = 5;
export const FACTOR_RESET_WINDOW_MS = 24 * 60 * 60 * 1000;

/** `POST /sca/factors/reset`: the contract's TwoFactorResetStart (no liveness handles: none is wired). */
export interface FactorResetStart {
  resetId: string;
  expiresAt: string;
}

export class StartFactorReset extends Command<FactorResetStart> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly factor: ScaFactor,
  ) {
    super();
  }
}

/**
 * Opens a reset of an enrolled factor (SMS_OTP is always one). It needs no SCA session and
 * ignores the lock: it is how a customer who lost a factor gets back in. The waiting period and
 * the window are the configuration's (`SCA_FACTOR_RESET_WAIT_MS`, `SCA_FACTOR_RESET_WINDOW_MS`);
 * the `sca-factor-resets` reactor schedules their tasks from the recorded start.
 */
@CommandHandler(StartFactorReset)
export class StartFactorResetHandler implements ICommandHandler<StartFactorReset, FactorResetStart> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId, factor }: StartFactorReset): Promise<FactorResetStart> {
    await this.customers.require(platformId, customerId);
    if (this.config.mode !== 'sandbox') {
      // Without a liveness provider the waiting period alone would gate a factor takeover.
      throw new DomainError('CONFLICT', 'A 2FA reset needs a liveness check, and no liveness provider is configured', { reason: 'LIVENESS_NOT_AVAILABLE' });
    }
    assertEnrolled(await this.profiles.load(customerId), factor);
    await this.consumeBudget(platformId, customerId);
    const resetId = newId('ScaFactorReset');
    const { state } = await this.commands.handle(SCA_FACTOR_RESET_STREAM, streamNameFor(resetId), {
      type: 'StartReset',
      resetId,
      platformId,
      customerId,
      factor,
      waitMs: this.config.sca.factorResetWaitMs,
      windowMs: this.config.sca.factorResetWindowMs,
      now: new Date().toISOString(),
    });
    return { resetId, expiresAt: state.expiresAt! };
  }

  private async consumeBudget(platformId: string, customerId: string): Promise<void> {
    const { hits, retryAfterSeconds } = await countInFixedWindow(this.pool, SCA_RATE_LIMIT_TABLE, `${platformId}:${customerId}:factor-reset`, FACTOR_RESET_WINDOW_MS);
    if (hits <= FACTOR_RESET_BUDGET) return;
    throw new ApiError(
      'RATE_LIMITED',
      `Too many 2FA resets for this customer; retry after ${retryAfterSeconds} seconds`,
      { reason: 'FACTOR_RESET_LIMIT_REACHED', retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** 400 on `factor` for a factor the customer has not enrolled (the reference: "invalid or unknown factor"). */
function assertEnrolled(profile: ProfileState, factor: ScaFactor): void {
  const enrolled = factor === 'SMS_OTP' || (factor === 'TOTP' ? profile.totp !== null : activePasskey(profile) !== null);
  if (enrolled) return;
  throw new ValidationError([{ field: 'factor', constraint: {}, message: `The customer has no enrolled ${factor} factor to reset` }]);
}
