import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { scaDynamicLinkingChallengeHex } from '../infra/crypto/webauthn';
import { DomainError } from '../infra/domain/domain-error';
import { ApiError } from '../infra/http/api-error';
import { isUuid, newId, parseId } from '../infra/ids';
import { ChallengeFactor, PasskeyChallengeData } from './domain/sca-factor';
import { ActivePasskey, activePasskey, assertNotLocked, availableFactors, hasLiveSession } from './domain/profile/profile.decider';
import {
  ExistingSequence,
  IssuedChallenge,
  SequencePlan,
  closedSequenceError,
  isChallengeExpired,
  isLastStep,
  sequenceDecider,
  sequenceNotFound,
} from './domain/sequence/sequence.decider';
import { ScaSubject, SequenceStep } from './domain/sequence/sequence.events';
import { scaChallengeView, ScaChallengeView } from './queries/sca-challenge.view';
import { challengeAlreadyAuthorized, challengeExpired, factorNotEnrolled, scaSessionRequired } from './domain/sca.errors';
import { ProofFields, ScaProofs } from './sca-proofs';
import { ScaProfiles } from './sca-profiles';
import { ScaRateLimiter } from './sca-rate-limiter';
import { CommandStore } from '../infra/commands/command-store';
import { SCA_SEQUENCE_STREAM } from './streams';

export type { SequencePlan } from './domain/sequence/sequence.decider';
export type { ScaSubject, SequenceStep } from './domain/sequence/sequence.events';
export { SCA_NOT_COMPLETED } from './domain/sequence/sequence.events';
export type { ChallengeFactor } from './domain/sca-factor';

export interface PlanInput {
  platformId: string;
  customerId: string;
  subject: ScaSubject;
  factor: ChallengeFactor;
  steps: SequenceStep[];
  /** Operations that move money need a live SCA login session (409 SCA_SESSION_REQUIRED). */
  requireSession: boolean;
}

export interface AuthorizeInput {
  platformId: string;
  sequenceId: string;
  proof: ProofFields;
  endUserIpAddress: string | null;
  requireSession: boolean;
  /**
   * The challenge the caller saw when the request arrived. A proof carries no challenge id, so
   * without this a request racing the one that satisfied that challenge would have its proof
   * checked against the next one; with it, it gets the 409 of a challenge already authorized.
   */
  expectedChallengeId?: string;
}

export type AuthorizeOutcome =
  | { kind: 'NEXT_CHALLENGE'; sequence: ExistingSequence; challenge: ScaChallengeView }
  | { kind: 'COMPLETED'; sequence: ExistingSequence };

/** `scaSequence-<uuid>`: a sequence is named by the uuid of its first challenge. */
export function sequenceStreamFor(sequenceId: string): string {
  return `scaSequence-${sequenceId}`;
}

/** The sequence a first challenge id opened (callers that keep only the challenge id). */
export function sequenceIdOfFirstChallenge(challengeId: string): string {
  const uuid = parseId('ScaChallenge', challengeId);
  if (!uuid) throw new DomainError('INTERNAL_ERROR', `Not an SCA challenge id: ${challengeId}`);
  return uuid;
}

/**
 * The challenge engine, for every operation that needs SCA (quotes, beneficiary trust):
 * `plan` decides the first challenge (checking session, lock and factor), the caller records its
 * own state, then `open` records the sequence (idempotent, so a reactor can repeat it);
 * `authorize` checks a proof against the live challenge and counts wrong ones; `resend` sends an
 * SMS code again. These are ports the serving contexts call inside their own command handlers;
 * the expiry task is this context's ExpireScaChallenge command.
 */
@Injectable()
export class ScaChallenges {
  constructor(
    private readonly commands: CommandStore,
    private readonly profiles: ScaProfiles,
    private readonly proofs: ScaProofs,
    private readonly limiter: ScaRateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async plan(input: PlanInput): Promise<SequencePlan> {
    const now = new Date();
    const profile = await this.profiles.load(input.customerId);
    if (input.requireSession && !hasLiveSession(profile, now.toISOString())) throw scaSessionRequired();
    assertNotLocked(profile, now.toISOString());
    const passkey = activePasskey(profile);
    if (input.factor === 'PASSKEY' && !passkey) throw factorNotEnrolled('PASSKEY');
    if (input.factor === 'SMS_OTP') this.proofs.assertCanSendCode();
    const challengeId = newId('ScaChallenge', now.getTime());
    return {
      sequenceId: sequenceIdOfFirstChallenge(challengeId),
      platformId: input.platformId,
      customerId: input.customerId,
      subject: input.subject,
      factor: input.factor,
      availableFactors: availableFactors(profile),
      steps: input.steps,
      firstChallenge: this.issue(challengeId, input.steps[0], input.factor, passkey, now),
    };
  }

  /** Records the planned sequence (no-op when it exists) and answers its live challenge. */
  async open(plan: SequencePlan): Promise<{ sequence: ExistingSequence; challenge: ScaChallengeView }> {
    const result = await this.commands.handle(SCA_SEQUENCE_STREAM, sequenceStreamFor(plan.sequenceId), {
      type: 'OpenSequence',
      plan,
      now: new Date().toISOString(),
    });
    const sequence = existing(result.state);
    return { sequence, challenge: liveChallengeView(sequence) };
  }

  /** The first challenge of a plan, as the caller shows it before and after `open`. */
  planChallengeView(plan: SequencePlan): ScaChallengeView {
    return scaChallengeView({
      challengeId: plan.firstChallenge.challengeId,
      factor: plan.factor,
      availableFactors: plan.availableFactors,
      purpose: plan.steps[0].purpose,
      issuedAt: plan.firstChallenge.issuedAt,
      expiresAt: plan.firstChallenge.expiresAt,
      passkey: plan.firstChallenge.passkey,
    });
  }

  async load(platformId: string, sequenceId: string): Promise<ExistingSequence> {
    if (!isUuid(sequenceId)) throw sequenceNotFound();
    const { state } = await this.commands.load(SCA_SEQUENCE_STREAM, sequenceStreamFor(sequenceId));
    if (state.status === 'none' || state.platformId !== platformId) throw sequenceNotFound();
    return state;
  }

  async authorize(input: AuthorizeInput): Promise<AuthorizeOutcome> {
    const now = new Date();
    const nowIso = now.toISOString();
    // Counted before the sequence is read, so the read-decide window of concurrent proofs stays short.
    await this.limiter.consumeAuthorize(input.platformId, input.sequenceId);
    const sequence = await this.load(input.platformId, input.sequenceId);
    const profile = await this.profiles.load(sequence.customerId);
    if (input.requireSession && !hasLiveSession(profile, nowIso)) throw scaSessionRequired();
    assertNotLocked(profile, nowIso);
    if (sequence.status !== 'OPEN') throw closedSequenceError(sequence, sequence.current.challengeId);
    if (input.expectedChallengeId && sequence.current.challengeId !== input.expectedChallengeId) throw challengeAlreadyAuthorized(input.expectedChallengeId);
    if (isChallengeExpired(sequence.current, nowIso)) throw await this.recordExpiry(sequence, nowIso);

    const challenge = sequence.current;
    const proof = this.proofs.proofFor(challenge.factor, input.proof);
    const passkey = activePasskey(profile);
    const ref = { platformId: sequence.platformId, customerId: sequence.customerId };
    const proofRef = { challengeId: challenge.challengeId, factor: challenge.factor, endUserIpAddress: input.endUserIpAddress };
    const verdict = await this.proofs.verify(proof, { passkey, challengeHex: challenge.passkey?.challengeHex ?? null });
    if (!verdict.ok) return this.profiles.rejectProof(ref, proofRef, verdict);

    // The profile first: it re-checks the lock at its own revision and moves the passkey counter
    // on before the challenge is spent, so a replayed assertion never passes twice.
    await this.profiles.handle(sequence.customerId, { type: 'RecordProofSuccess', ...ref, ...proofRef, passkeyCounter: verdict.passkeyCounter, now: nowIso });
    const next = isLastStep(sequence) ? null : this.issue(newId('ScaChallenge', now.getTime()), sequence.steps[challenge.step + 1], sequence.factor, passkey, now);
    const result = await this.commands.handle(SCA_SEQUENCE_STREAM, sequenceStreamFor(sequence.sequenceId), {
      type: 'AuthorizeChallenge',
      challengeId: challenge.challengeId,
      endUserIpAddress: input.endUserIpAddress,
      next,
      now: nowIso,
    });
    const after = existing(result.state);
    if (after.status === 'FAILED') throw challengeExpired(challenge.expiresAt);
    if (after.status === 'COMPLETED') return { kind: 'COMPLETED', sequence: after };
    return { kind: 'NEXT_CHALLENGE', sequence: after, challenge: liveChallengeView(after) };
  }

  /** `POST .../authorize/resend`: sends the SMS code again (429 with Retry-After when too soon). */
  async resend(platformId: string, sequenceId: string): Promise<ExistingSequence> {
    const sequence = await this.load(platformId, sequenceId);
    await this.profiles.assertNotLocked(sequence.customerId);
    if (sequence.status === 'OPEN' && sequence.current.factor === 'SMS_OTP') this.proofs.assertCanSendCode();
    try {
      const result = await this.commands.handle(SCA_SEQUENCE_STREAM, sequenceStreamFor(sequenceId), {
        type: 'ResendCode',
        policy: { resendIntervalMs: this.config.sca.resendIntervalMs, maxResends: this.config.sca.maxResends },
        now: new Date().toISOString(),
      });
      const after = existing(result.state);
      if (after.status === 'FAILED') throw challengeExpired(after.current.expiresAt);
      return after;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'RATE_LIMITED' && !(error instanceof ApiError)) {
        throw new ApiError(error.code, error.message, error.details, { 'Retry-After': String(error.details?.retryAfterSeconds ?? 1) });
      }
      throw error;
    }
  }

  private async recordExpiry(sequence: ExistingSequence, now: string): Promise<DomainError> {
    await this.commands.handle(SCA_SEQUENCE_STREAM, sequenceStreamFor(sequence.sequenceId), { type: 'ExpireChallenge', challengeId: sequence.current.challengeId, now });
    return challengeExpired(sequence.current.expiresAt);
  }

  private issue(challengeId: string, step: SequenceStep, factor: ChallengeFactor, passkey: ActivePasskey | null, now: Date): IssuedChallenge {
    return {
      challengeId,
      issuedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.config.sca.challengeTtlMs).toISOString(),
      passkey: factor === 'PASSKEY' ? passkeyChallenge(challengeId, step, passkey) : null,
    };
  }
}

function passkeyChallenge(challengeId: string, step: SequenceStep, passkey: ActivePasskey | null): PasskeyChallengeData {
  if (!passkey) throw factorNotEnrolled('PASSKEY');
  if (!step.linking) throw new DomainError('INTERNAL_ERROR', 'A PASSKEY challenge needs the data it links to');
  return {
    challengeHex: scaDynamicLinkingChallengeHex({ challengeId, ...step.linking }),
    rpId: passkey.rpId,
    credentialId: passkey.credentialId,
    transports: passkey.transports,
  };
}

function existing(state: ReturnType<typeof sequenceDecider.initialState> | ExistingSequence): ExistingSequence {
  if (state.status === 'none') throw sequenceNotFound();
  return state;
}

/** The live (or last) challenge of a sequence as the API shows it; per-transaction: no allowed origins. */
export function liveChallengeView(sequence: ExistingSequence): ScaChallengeView {
  return scaChallengeView({
    challengeId: sequence.current.challengeId,
    factor: sequence.current.factor,
    availableFactors: sequence.availableFactors,
    purpose: sequence.current.purpose,
    issuedAt: sequence.current.issuedAt,
    expiresAt: sequence.current.expiresAt,
    passkey: sequence.current.passkey,
  });
}
