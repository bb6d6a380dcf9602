import { Injectable } from '@nestjs/common';
import { CommandStore, LoadedStream } from '../infra/commands/command-store';
import { streamNameFor } from '../infra/ids';
import { activePasskey } from './domain/profile/profile.decider';
import { ResetState, ResetStatus } from './domain/reset/reset.decider';
import { resetNotFound } from './domain/sca.errors';
import { ScaFactor } from './domain/sca-factor';
import { ScaCustomers } from './sca-customers';
import { ScaProfiles } from './sca-profiles';
import { SCA_FACTOR_RESET_STREAM } from './streams';

/** `GET /sca/factors/reset/{resetId}`: the contract's TwoFactorResetStatus (nulls left out). */
export interface FactorResetStatusView {
  status: ResetStatus;
  factor: ScaFactor;
  /** After completion, for TOTP and PASSKEY: PENDING until the customer enrolls the factor again. */
  enrollmentStatus?: 'PENDING' | 'COMPLETED';
  expiresAt: string;
  completedAt?: string;
}

/** The customers' 2FA resets (stream `scaFactorReset-<uuid>` each), read for the status and the commands. */
@Injectable()
export class ScaFactorResets {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
  ) {}

  /** The reset, or 404 REFERENCE_NOT_FOUND when it is not this customer's (another platform's included). */
  async require(platformId: string, customerId: string, resetId: string): Promise<LoadedStream<ResetState>> {
    const loaded = await this.commands.load(SCA_FACTOR_RESET_STREAM, streamNameFor(resetId));
    if (loaded.state.platformId !== platformId || loaded.state.customerId !== customerId) throw resetNotFound();
    return loaded;
  }

  async status(platformId: string, customerId: string, resetId: string): Promise<FactorResetStatusView> {
    await this.customers.require(platformId, customerId);
    const { state } = await this.require(platformId, customerId, resetId);
    const view: FactorResetStatusView = { status: state.status as ResetStatus, factor: state.factor!, expiresAt: state.expiresAt! };
    if (state.completedAt === null) return view;
    view.completedAt = state.completedAt;
    if (state.factor !== 'SMS_OTP') view.enrollmentStatus = (await this.reenrolledSince(customerId, state.factor!, state.completedAt)) ? 'COMPLETED' : 'PENDING';
    return view;
  }

  private async reenrolledSince(customerId: string, factor: 'TOTP' | 'PASSKEY', completedAt: string): Promise<boolean> {
    const profile = await this.profiles.load(customerId);
    const enrolledAt = factor === 'TOTP' ? profile.totp?.enrolledAt : activePasskey(profile)?.enrolledAt;
    return enrolledAt !== undefined && Date.parse(enrolledAt) >= Date.parse(completedAt);
  }
}
