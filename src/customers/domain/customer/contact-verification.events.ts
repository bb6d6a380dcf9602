/**
 * Contact verification events of the customer stream: the channels the customer's provider
 * requires (email, phone, both or none) and each channel's progress from PENDING to VERIFIED.
 * Codes themselves are never recorded (the sandbox's is fixed; a real one stays with its sender).
 */
export type ContactChannel = 'EMAIL' | 'PHONE';
export type ContactVerificationStatus = 'PENDING' | 'VERIFIED';

/** Each required channel's status; a channel absent is not required. */
export type ContactChannelStatuses = { email?: ContactVerificationStatus; phone?: ContactVerificationStatus };

/**
 * The required channels and their statuses after a change: at creation (the provider's
 * requirement), or when a PATCH changed a required email or phone (that channel is PENDING again).
 */
export type ContactVerificationRequirementSet = {
  type: 'ContactVerificationRequirementSet';
  data: {
    customerId: string;
    platformId: string;
    channels: ContactChannelStatuses;
    reason: 'CUSTOMER_CREATED' | 'EMAIL_CHANGED' | 'PHONE_CHANGED';
    setAt: string;
  };
};

/** A code was sent (or re-sent) on the channel; it is accepted until `expiresAt`. */
export type ContactVerificationCodeSent = {
  type: 'ContactVerificationCodeSent';
  data: { customerId: string; platformId: string; channel: ContactChannel; expiresAt: string; sentAt: string };
};

/** A wrong code: the run of wrong codes on the channel, and the lock it started, if any. */
export type ContactVerificationCodeRejected = {
  type: 'ContactVerificationCodeRejected';
  data: { customerId: string; platformId: string; channel: ContactChannel; failedAttempts: number; lockedUntil: string | null; rejectedAt: string };
};

export type ContactVerified = {
  type: 'ContactVerified';
  data: { customerId: string; platformId: string; channel: ContactChannel; verifiedAt: string };
};

export type ContactVerificationEvent = ContactVerificationRequirementSet | ContactVerificationCodeSent | ContactVerificationCodeRejected | ContactVerified;

export const CONTACT_VERIFICATION_EVENT_TYPES: ContactVerificationEvent['type'][] = [
  'ContactVerificationRequirementSet',
  'ContactVerificationCodeSent',
  'ContactVerificationCodeRejected',
  'ContactVerified',
];
