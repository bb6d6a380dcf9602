import { Injectable } from '@nestjs/common';
import { ChallengeFactor } from './domain/sca-factor';
import { activePasskey, availableFactors } from './domain/profile/profile.decider';
import { EnrolledFactor, ScaFactorView, enrolledPasskey } from './queries/sca-factor.view';
import { ScaFactorsQuery } from './queries/sca-factors.query';
import { ScaCustomers } from './sca-customers';
import { ScaProfiles } from './sca-profiles';

export interface ScaFactorList {
  /** The contract's list: SMS_OTP (always available), the confirmed TOTP factor and the confirmed passkey. */
  factors: EnrolledFactor[];
  /** Passkey factors with their enrollment state (pending ones too). */
  data: ScaFactorView[];
  /** The factors a challenge may be issued for (TOTP opens logins only, so it is never one). */
  availableFactors: ChallengeFactor[];
}

/**
 * `GET /sca/factors`: the customer's factors, from the profile (what is enrolled now) and the
 * factors read model (passkey enrollments with their state). Enrolling and removing are commands
 * (src/sca/commands).
 */
@Injectable()
export class ScaFactorsService {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly query: ScaFactorsQuery,
  ) {}

  async list(platformId: string, customerId: string): Promise<ScaFactorList> {
    await this.customers.require(platformId, customerId);
    const profile = await this.profiles.load(customerId);
    const factors: EnrolledFactor[] = [{ factor: 'SMS_OTP' }];
    if (profile.totp) factors.push(profile.totp.nickname === null ? { factor: 'TOTP' } : { factor: 'TOTP', name: profile.totp.nickname });
    const passkey = activePasskey(profile);
    if (passkey) factors.push(enrolledPasskey(passkey.credentialId, passkey.nickname));
    return { factors, data: await this.query.listForCustomer(platformId, customerId), availableFactors: availableFactors(profile) };
  }
}
