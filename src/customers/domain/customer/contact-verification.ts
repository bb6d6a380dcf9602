import { DomainError, FieldError } from '../../../infra/domain/domain-error';
import { ContactChannel, ContactVerificationStatus } from './contact-verification.events';
import { CustomerEvent, CustomerProfile, CustomerType, DocumentRecord, VerificationError } from './customer.events';
import { businessRequirementErrors, individualRequirementErrors } from './verification-requirements';

export type { ContactChannel } from './contact-verification.events';

/**
 * Contact verification rules of the customer decider (split out to keep it small). The provider
 * decides at creation which channels it requires (the command carries them; the sandbox rule is
 * in src/customers/contact-verification-providers.ts). Each required channel goes PENDING ->
 * VERIFIED by a code; codes expire and wrong codes lock the channel like SCA's (same timing
 * config: 5 minutes, 5 wrong codes in a row lock for 15 minutes; docs/customers.md).
 */
export interface ChannelVerification {
  status: ContactVerificationStatus;
  /** Until when the last code sent is accepted; null before a code is sent and once verified. */
  codeExpiresAt: string | null;
  /** Wrong codes in a row (a lock that has run out starts the count again). */
  failedAttempts: number;
  lockedUntil: string | null;
}

export interface ContactVerificationState {
  email?: ChannelVerification;
  phone?: ChannelVerification;
}

export interface ContactCodePolicy {
  codeTtlMs: number;
  maxFailedAttempts: number;
  lockoutMs: number;
}

export type ContactVerificationCommand =
  | { type: 'SendContactVerificationCode'; channel: ContactChannel; policy: ContactCodePolicy; now: string }
  /** `codeMatches`: the handler's verdict on the code (the decider never sees a code). */
  | { type: 'ConfirmContactVerificationCode'; channel: ContactChannel; codeMatches: boolean; policy: ContactCodePolicy; now: string };

/** What these rules read of the customer's state (the decider's CustomerRecord has it all). */
export interface ContactVerificationSubject {
  status: 'active' | 'deleted';
  customerId: string;
  platformId: string;
  customerType: CustomerType;
  profile: CustomerProfile;
  documents: DocumentRecord[];
  contactVerification?: ContactVerificationState;
}

const KEYS = { EMAIL: 'email', PHONE: 'phone' } as const;
const CONTACT_FIELDS = { EMAIL: 'email', PHONE: 'phoneNumber' } as const;

export function decideContactVerification(command: ContactVerificationCommand, state: { status: 'none' } | ContactVerificationSubject): CustomerEvent[] {
  if (state.status === 'none') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
  // These operations declare 409, not 410: the deleted customer's state forbids the change.
  if (state.status === 'deleted') throw new DomainError('CONFLICT', 'The customer was deleted', { reason: 'CUSTOMER_DELETED' });
  const channel = requiredUnverified(state, command.channel);
  assertNotLocked(channel, command.channel, command.now);
  const ref = { customerId: state.customerId, platformId: state.platformId, channel: command.channel };
  return command.type === 'SendContactVerificationCode' ? decideSend(command, state, ref) : decideConfirm(command, channel, ref);
}

type ChannelRef = { customerId: string; platformId: string; channel: ContactChannel };
type SendCommand = Extract<ContactVerificationCommand, { type: 'SendContactVerificationCode' }>;
type ConfirmCommand = Extract<ContactVerificationCommand, { type: 'ConfirmContactVerificationCode' }>;

/** A code (a new one on every call) for a contact on file, live for the policy's TTL. */
function decideSend(command: SendCommand, state: ContactVerificationSubject, ref: ChannelRef): CustomerEvent[] {
  const field = CONTACT_FIELDS[command.channel];
  if (!state.profile[field]) {
    throw new DomainError('CONFLICT', `The customer has no ${field} to verify; set it with PATCH /customers/{customerId}`, {
      reason: command.channel === 'EMAIL' ? 'EMAIL_MISSING' : 'PHONE_NUMBER_MISSING',
    });
  }
  const expiresAt = new Date(Date.parse(command.now) + command.policy.codeTtlMs).toISOString();
  return [{ type: 'ContactVerificationCodeSent', data: { ...ref, expiresAt, sentAt: command.now } }];
}

/** The live code verifies the channel; a wrong one is recorded, and the last one allowed locks it. */
function decideConfirm(command: ConfirmCommand, channel: ChannelVerification, ref: ChannelRef): CustomerEvent[] {
  if (channel.codeExpiresAt === null) {
    throw codeRefused(`No code was sent: call POST /customers/{customerId}/verify-${KEYS[command.channel]} first`, 'NO_CODE_SENT');
  }
  if (Date.parse(command.now) >= Date.parse(channel.codeExpiresAt)) {
    throw codeRefused('The code expired: request a new one', 'CODE_EXPIRED', { expiresAt: channel.codeExpiresAt });
  }
  if (command.codeMatches) return [{ type: 'ContactVerified', data: { ...ref, verifiedAt: command.now } }];
  const failedAttempts = failedSoFar(channel, command.now) + 1;
  const locks = failedAttempts >= command.policy.maxFailedAttempts;
  const lockedUntil = locks ? new Date(Date.parse(command.now) + command.policy.lockoutMs).toISOString() : null;
  return [{ type: 'ContactVerificationCodeRejected', data: { ...ref, failedAttempts, lockedUntil, rejectedAt: command.now } }];
}

/** The channel's state, or 409 when the provider does not require it or it is verified already. */
function requiredUnverified(state: ContactVerificationSubject, channel: ContactChannel): ChannelVerification {
  const current = state.contactVerification?.[KEYS[channel]];
  if (!current) {
    throw new DomainError('CONFLICT', `The customer's provider does not require ${KEYS[channel]} verification`, {
      reason: 'CONTACT_VERIFICATION_NOT_REQUIRED',
      channel,
    });
  }
  if (current.status === 'VERIFIED') throw new DomainError('CONFLICT', `The customer's ${KEYS[channel]} is already verified`, { reason: 'ALREADY_VERIFIED', channel });
  return current;
}

export function isChannelLocked(channel: ChannelVerification, now: string): boolean {
  return channel.lockedUntil !== null && Date.parse(now) < Date.parse(channel.lockedUntil);
}

/** The operations declare no 423: a lock is a 409 with SCA's lock details (docs/customers.md). */
export function channelLocked(channel: ContactChannel, lockedUntil: string, failedAttempts: number): DomainError {
  return new DomainError('CONFLICT', `${KEYS[channel]} verification is locked after too many wrong codes; retry after lockedUntil`, {
    reason: 'VERIFICATION_LOCKED',
    channel,
    lockedUntil,
    failedAttempts,
  });
}

function assertNotLocked(state: ChannelVerification, channel: ContactChannel, now: string): void {
  if (isChannelLocked(state, now)) throw channelLocked(channel, state.lockedUntil!, state.failedAttempts);
}

function failedSoFar(channel: ChannelVerification, now: string): number {
  return channel.lockedUntil !== null && !isChannelLocked(channel, now) ? 0 : channel.failedAttempts;
}

/** 400 on `code` ("invalid or expired code"); not counted as a wrong code. */
function codeRefused(message: string, reason: string, details: Record<string, unknown> = {}): DomainError {
  const errors: FieldError[] = [{ field: 'code', constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, { errors, reason, ...details });
}

/** 400 for a wrong code, with the run so far (the SCA shape: failedAttempts, remainingAttempts). */
export function wrongCode(failedAttempts: number, maxFailedAttempts: number): DomainError {
  const message = 'The code is not the one sent';
  const errors: FieldError[] = [{ field: 'code', constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, {
    errors,
    reason: 'WRONG_CODE',
    failedAttempts,
    remainingAttempts: Math.max(0, maxFailedAttempts - failedAttempts),
  });
}

/** At creation: every channel the provider requires starts PENDING. */
export function contactVerificationAtCreation(ref: { customerId: string; platformId: string }, channels: ContactChannel[] | undefined, now: string): CustomerEvent[] {
  if (!channels || channels.length === 0) return [];
  const statuses = Object.fromEntries(channels.map((channel) => [KEYS[channel], 'PENDING' as const]));
  return [{ type: 'ContactVerificationRequirementSet', data: { ...ref, channels: statuses, reason: 'CUSTOMER_CREATED', setAt: now } }];
}

/**
 * A PATCH that changes a required email or phone number sends that channel back to PENDING (the
 * verified or pending code was for the old value); its run of wrong codes and any lock stay.
 */
export function contactVerificationAfterUpdate(state: ContactVerificationSubject, changes: Partial<CustomerProfile>, now: string): CustomerEvent[] {
  const current = state.contactVerification;
  if (!current) return [];
  const events: CustomerEvent[] = [];
  let channels = statusesOf(current);
  for (const channel of ['EMAIL', 'PHONE'] as const) {
    const key = KEYS[channel];
    const before = current[key];
    if (!before || changes[CONTACT_FIELDS[channel]] === undefined) continue;
    if (before.status === 'PENDING' && before.codeExpiresAt === null) continue;
    channels = { ...channels, [key]: 'PENDING' };
    const reason = channel === 'EMAIL' ? 'EMAIL_CHANGED' : 'PHONE_CHANGED';
    events.push({ type: 'ContactVerificationRequirementSet', data: { customerId: state.customerId, platformId: state.platformId, channels, reason, setAt: now } });
  }
  return events;
}

export function statusesOf(state: ContactVerificationState): { email?: ContactVerificationStatus; phone?: ContactVerificationStatus } {
  return {
    ...(state.email ? { email: state.email.status } : {}),
    ...(state.phone ? { phone: state.phone.status } : {}),
  };
}

type ContactEvent = Extract<
  CustomerEvent,
  { type: 'ContactVerificationRequirementSet' | 'ContactVerificationCodeSent' | 'ContactVerificationCodeRejected' | 'ContactVerified' }
>;

/** The fold; `updatedAt` moves only when a shown status changes. */
export function evolveContactVerification<S extends { contactVerification?: ContactVerificationState; updatedAt: string }>(state: S, event: ContactEvent): S {
  const current = state.contactVerification ?? {};
  switch (event.type) {
    case 'ContactVerificationRequirementSet': {
      const next: ContactVerificationState = {};
      for (const key of ['email', 'phone'] as const) {
        const status = event.data.channels[key];
        if (!status) continue;
        const before = current[key];
        const changed = event.data.reason === (key === 'email' ? 'EMAIL_CHANGED' : 'PHONE_CHANGED');
        const reset = status === 'PENDING' && (before?.status !== 'PENDING' || changed);
        next[key] = before && !reset ? before : { status, codeExpiresAt: null, failedAttempts: before?.failedAttempts ?? 0, lockedUntil: before?.lockedUntil ?? null };
      }
      return { ...state, contactVerification: next, updatedAt: event.data.setAt };
    }
    case 'ContactVerificationCodeSent':
      return withChannel(state, current, KEYS[event.data.channel], { codeExpiresAt: event.data.expiresAt });
    case 'ContactVerificationCodeRejected':
      return withChannel(state, current, KEYS[event.data.channel], { failedAttempts: event.data.failedAttempts, lockedUntil: event.data.lockedUntil });
    case 'ContactVerified':
      return {
        ...withChannel(state, current, KEYS[event.data.channel], { status: 'VERIFIED', codeExpiresAt: null, failedAttempts: 0, lockedUntil: null }),
        updatedAt: event.data.verifiedAt,
      };
  }
}

function withChannel<S extends { contactVerification?: ContactVerificationState }>(
  state: S,
  current: ContactVerificationState,
  key: 'email' | 'phone',
  change: Partial<ChannelVerification>,
): S {
  const before = current[key];
  if (!before) return state;
  return { ...state, contactVerification: { ...current, [key]: { ...before, ...change } } };
}

/**
 * Every required channel must be VERIFIED before KYC/KYB (the reference's ContactVerification):
 * a verification submitted earlier resolves to RESOLVE_ERRORS, one error per channel still
 * PENDING, next to the requirements already found missing. Empty when nothing is pending.
 */
export function contactVerificationErrors(state: ContactVerificationSubject): VerificationError[] {
  const errors: VerificationError[] = [];
  for (const channel of ['EMAIL', 'PHONE'] as const) {
    if (state.contactVerification?.[KEYS[channel]]?.status !== 'PENDING') continue;
    errors.push({
      resourceId: state.customerId,
      type: 'INVALID_FIELD',
      field: CONTACT_FIELDS[channel],
      reason: `The ${KEYS[channel]} must be verified first (POST /customers/{customerId}/verify-${KEYS[channel]} and its /confirm)`,
    });
  }
  return errors;
}

/**
 * Holds back a decided verification while contact verification is incomplete: only the
 * verification event stays, as RESOLVE_ERRORS with the contact errors added (no status change).
 */
export function gateVerification(state: ContactVerificationSubject, decided: CustomerEvent[]): CustomerEvent[] {
  const contactErrors = contactVerificationErrors(state);
  if (contactErrors.length === 0) return decided;
  const requirementErrors = state.customerType === 'INDIVIDUAL' ? individualRequirementErrors : businessRequirementErrors;
  return decided.flatMap((event): CustomerEvent[] => {
    if (event.type !== 'VerificationSubmitted') return [];
    const earlier = event.data.verificationStatus === 'RESOLVE_ERRORS' ? event.data.errors : requirementErrors(state.customerId, state.profile, state.documents);
    return [{ ...event, data: { ...event.data, verificationStatus: 'RESOLVE_ERRORS', errors: [...earlier, ...contactErrors] } }];
  });
}
