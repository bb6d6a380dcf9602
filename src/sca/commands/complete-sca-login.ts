import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { ValidationError } from '../../infra/domain/domain-error';
import { newId } from '../../infra/ids';
import { LoginFactor, ScaFactor } from '../domain/sca-factor';
import { LoginChallenge, ProfileState, TotpLoginProof, activePasskey, assertNotLocked } from '../domain/profile/profile.decider';
import { challengeExpired, noPendingChallenge } from '../domain/sca.errors';
import { ScaCustomers } from '../sca-customers';
import { ProofFields, ProofVerdict, ScaProof, ScaProofs } from '../sca-proofs';
import { ScaProfiles } from '../sca-profiles';
import { ScaTotp } from '../sca-totp.service';

/**
 * The SCA session a login gives; execute and authorize need a live one. The contract's
 * ScaLoginComplete (`status`, `sessionExpiresAt`) plus the session's own fields.
 */
export interface ScaSessionView {
  status: 'SUCCESS';
  sessionExpiresAt: string;
  id: string;
  customerId: string;
  factor: LoginFactor;
  createdAt: string;
  expiresAt: string;
}

export interface LoginCompletion {
  customerId: string;
  factor: ScaFactor;
  challengeId: string | null;
  proof: ProofFields;
  endUserIpAddress: string | null;
}

export class CompleteScaLogin extends Command<ScaSessionView> {
  constructor(
    readonly platformId: string,
    readonly input: LoginCompletion,
  ) {
    super();
  }
}

/**
 * Checks the proof against the pending login challenge (wrong ones count towards the lock) and
 * opens a session of `sessionTtlMs`.
 */
@CommandHandler(CompleteScaLogin)
export class CompleteScaLoginHandler implements ICommandHandler<CompleteScaLogin, ScaSessionView> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly proofs: ScaProofs,
    private readonly totp: ScaTotp,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, input }: CompleteScaLogin): Promise<ScaSessionView> {
    const { customerId } = input;
    await this.customers.require(platformId, customerId);
    const now = new Date();
    const nowIso = now.toISOString();
    const profile = await this.profiles.load(customerId);
    assertNotLocked(profile, nowIso);
    const challenge = profile.loginChallenge;
    if (!challenge) throw noPendingChallenge('SCA login');
    if (Date.parse(nowIso) >= Date.parse(challenge.expiresAt)) throw challengeExpired(challenge.expiresAt);
    if (input.challengeId && input.challengeId !== challenge.challengeId) {
      throw new ValidationError([{ field: 'challengeId', constraint: {}, message: 'challengeId is not the pending login challenge: start a login again or send the latest one' }]);
    }
    if (input.factor !== challenge.factor) {
      throw new ValidationError([{ field: 'factor', constraint: { enum: [challenge.factor] }, message: `The pending login challenge was issued for ${challenge.factor}` }]);
    }
    const verdict = await this.check(challenge, this.proofs.proofFor(challenge.factor, input.proof), profile, now);
    const ref = { platformId, customerId };
    if (!verdict.ok) {
      return this.profiles.rejectProof(ref, { challengeId: challenge.challengeId, factor: challenge.factor, endUserIpAddress: input.endUserIpAddress }, verdict);
    }
    const sessionId = newId('Session', now.getTime());
    const expiresAt = new Date(now.getTime() + this.config.sca.sessionTtlMs).toISOString();
    await this.profiles.handle(customerId, {
      type: 'CompleteLogin',
      ...ref,
      challengeId: challenge.challengeId,
      factor: challenge.factor,
      passkeyCounter: verdict.passkeyCounter,
      totpProof: verdict.totpProof,
      sessionId,
      sessionExpiresAt: expiresAt,
      endUserIpAddress: input.endUserIpAddress,
      now: nowIso,
    });
    return { status: 'SUCCESS', sessionExpiresAt: expiresAt, id: sessionId, customerId, factor: challenge.factor, createdAt: nowIso, expiresAt };
  }

  /** A TOTP code against the enrolled secret and recovery codes; SMS codes and passkey assertions as every challenge's. */
  private async check(
    challenge: LoginChallenge,
    proof: ScaProof,
    profile: ProfileState,
    now: Date,
  ): Promise<(Extract<ProofVerdict, { ok: true }> & { totpProof: TotpLoginProof | null }) | Extract<ProofVerdict, { ok: false }>> {
    if (challenge.factor === 'TOTP' && proof.kind === 'CODE') {
      const checked = await this.totp.verifyLogin(profile, proof.code, now);
      return checked.ok ? { ok: true, passkeyCounter: null, totpProof: checked.totpProof } : checked;
    }
    const verdict = await this.proofs.verify(proof, { passkey: activePasskey(profile), challengeHex: challenge.passkey?.challengeHex ?? null });
    return verdict.ok ? { ...verdict, totpProof: null } : verdict;
  }
}
