import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { boundChallengeHex } from '../infra/crypto/webauthn';
import { newId } from '../infra/ids';
import { ChallengeFactor, LoginFactor, PasskeyChallengeData, ScaFactor } from './domain/sca-factor';
import { LoginChallenge, ProfileState, TotpLoginProof, activePasskey, assertNotLocked, availableFactors } from './domain/profile/profile.decider';
import { ScaChallengeView, scaChallengeView } from './queries/sca-challenge.view';
import { challengeExpired, factorNotEnrolled, noPendingChallenge } from './domain/sca.errors';
import { ScaCustomers } from './sca-customers';
import { ProofFields, ProofVerdict, ScaProof, ScaProofs } from './sca-proofs';
import { ScaProfiles } from './sca-profiles';
import { ScaTotp } from './sca-totp.service';
import { ValidationError } from '../infra/domain/domain-error';

/**
 * `POST /sca/login/start`: the contract's ScaLoginStart (`factor`, `challengeId`, `expiresAt`,
 * and for PASSKEY `passkeyOptions`, `allowedOrigins`, `relyingPartyId`), plus the challenge as
 * our ScaChallenge (`scaChallenge`) and the customer, which earlier clients read. A TOTP login
 * issues nothing to show: the factor and the customer only.
 */
export type LoginStart = ChallengeLoginStart | TotpLoginStart;

export interface TotpLoginStart {
  factor: 'TOTP';
  customerId: string;
}

export interface ChallengeLoginStart {
  factor: ChallengeFactor;
  challengeId: string;
  expiresAt: string;
  passkeyOptions?: ScaChallengeView['passkeyAssertionOptions'];
  allowedOrigins?: string[];
  relyingPartyId?: string;
  customerId: string;
  scaChallenge: ScaChallengeView;
}

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

/**
 * SCA login (DECISIONS.md section 3): `start` issues a login challenge (SMS code, a TOTP code read
 * from the customer's app, or a passkey assertion over a fresh bound challenge, with the origins
 * allowed at enrollment), `complete` checks the proof (wrong ones count towards the lock) and
 * opens a session of `sessionTtlMs`. A TOTP login's challenge is kept unseen for the same
 * `challengeTtlMs`: it makes the login single use and the factor checked, as for the others.
 */
@Injectable()
export class ScaLoginService {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly proofs: ScaProofs,
    private readonly totp: ScaTotp,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(platformId: string, customerId: string, factor: ScaFactor): Promise<LoginStart> {
    await this.customers.require(platformId, customerId);
    const now = new Date();
    const profile = await this.profiles.load(customerId);
    assertNotLocked(profile, now.toISOString());
    const passkey = activePasskey(profile);
    if (factor === 'PASSKEY' && !passkey) throw factorNotEnrolled('PASSKEY');
    if (factor === 'TOTP' && !profile.totp) throw factorNotEnrolled('TOTP');
    if (factor === 'SMS_OTP') this.proofs.assertCanSendCode();
    const challengeId = newId('ScaChallenge', now.getTime());
    const expiresAt = new Date(now.getTime() + this.config.sca.challengeTtlMs).toISOString();
    const passkeyData: PasskeyChallengeData | null =
      factor === 'PASSKEY'
        ? {
            challengeHex: boundChallengeHex({ challengeId, customerId, purpose: 'SCA_LOGIN' }),
            rpId: passkey!.rpId,
            credentialId: passkey!.credentialId,
            transports: passkey!.transports,
          }
        : null;
    await this.profiles.handle(customerId, {
      type: 'IssueLoginChallenge',
      platformId,
      customerId,
      challengeId,
      factor,
      expiresAt,
      passkey: passkeyData,
      now: now.toISOString(),
    });
    if (factor === 'TOTP') return { factor, customerId };
    const scaChallenge = scaChallengeView({
      challengeId,
      factor,
      availableFactors: availableFactors(profile),
      purpose: null,
      issuedAt: now.toISOString(),
      expiresAt,
      passkey: passkeyData,
      allowedOrigins: passkey?.allowedOrigins ?? null,
    });
    const started: ChallengeLoginStart = { factor, challengeId, expiresAt, customerId, scaChallenge };
    if (factor === 'PASSKEY') {
      started.passkeyOptions = scaChallenge.passkeyAssertionOptions;
      started.allowedOrigins = passkey!.allowedOrigins;
      started.relyingPartyId = passkey!.rpId;
    }
    return started;
  }

  async complete(
    platformId: string,
    input: { customerId: string; factor: ScaFactor; challengeId?: string | null; proof: ProofFields; endUserIpAddress: string | null },
  ): Promise<ScaSessionView> {
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
