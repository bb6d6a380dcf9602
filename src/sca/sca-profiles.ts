import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { DomainError } from '../infra/domain/domain-error';
import { parseId } from '../infra/ids';
import { LoginFactor } from './domain/sca-factor';
import { ProfileCommand, ProfileState, assertNotLocked, hasLiveSession, lockRefusal, profileDecider } from './domain/profile/profile.decider';
import { proofRejected, scaSessionRequired } from './domain/sca.errors';
import { ProofVerdict } from './sca-proofs';
import { CommandStore } from '../infra/commands/command-store';
import { SCA_PROFILE_STREAM } from './streams';

/** `scaProfile-<customer uuid>`: one SCA profile per customer. */
export function profileStreamFor(customerId: string): string {
  const uuid = parseId('Customer', customerId);
  if (!uuid) throw new DomainError('INTERNAL_ERROR', `Not a customer id: ${customerId}`);
  return `scaProfile-${uuid}`;
}

/**
 * The customers' SCA profiles: loading, commands, and the bookkeeping every ceremony shares (a
 * live session, the lock, counting wrong proofs).
 */
@Injectable()
export class ScaProfiles {
  constructor(
    private readonly commands: CommandStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async load(customerId: string): Promise<ProfileState> {
    return (await this.commands.load(SCA_PROFILE_STREAM, profileStreamFor(customerId))).state;
  }

  async handle(customerId: string, command: ProfileCommand): Promise<ProfileState> {
    return (await this.commands.handle(SCA_PROFILE_STREAM, profileStreamFor(customerId), command)).state;
  }

  /** 409 SCA_SESSION_REQUIRED without a live SCA login session (SPEC.md Authentication 7). */
  async requireLiveSession(customerId: string, now = new Date().toISOString()): Promise<ProfileState> {
    const profile = await this.load(customerId);
    if (!hasLiveSession(profile, now)) throw scaSessionRequired();
    return profile;
  }

  /** 423 ACCOUNT_LOCKED while the customer's SCA is locked. */
  async assertNotLocked(customerId: string, now = new Date().toISOString()): Promise<ProfileState> {
    const profile = await this.load(customerId);
    assertNotLocked(profile, now);
    return profile;
  }

  /**
   * Records a wrong proof and throws what the caller answers: 400 INVALID_INPUT naming the field,
   * or 423 ACCOUNT_LOCKED when this proof was the one too many.
   */
  async rejectProof(
    ref: { platformId: string; customerId: string },
    proof: { challengeId: string; factor: LoginFactor; endUserIpAddress: string | null },
    verdict: Extract<ProofVerdict, { ok: false }>,
  ): Promise<never> {
    const now = new Date().toISOString();
    const state = await this.handle(ref.customerId, {
      type: 'RecordProofFailure',
      ...ref,
      ...proof,
      reason: verdict.reason,
      policy: { maxFailedAttempts: this.config.sca.maxFailedAttempts, lockoutMs: this.config.sca.lockoutMs },
      now,
    });
    const locked = lockRefusal(state, now);
    if (locked) throw locked;
    throw proofRejected(verdict.field, verdict.message, verdict.reason, state.failedAttempts, this.config.sca.maxFailedAttempts);
  }
}
