import { deciderSpec } from '../../../../test/support/decider-spec';
import { ContactCodePolicy } from './contact-verification';
import { CustomerCommand, customerDecider } from './customer.decider';
import { CustomerEvent, CustomerProfile } from './customer.events';

const T0 = '2025-10-13T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { customerId: CUSTOMER, platformId: 'Platform:p' };
const policy: ContactCodePolicy = { codeTtlMs: 300_000, maxFailedAttempts: 3, lockoutMs: 900_000 };
const profile: CustomerProfile = {
  region: 'DE', email: 'jane.201@example.com', phoneNumber: '+4915112345678', address: null, fullName: 'Jane Doe', birthDate: null, nationality: null,
  taxIdType: null, taxIdentifier: null, businessInfo: null, beneficialOwners: [],
};
const spec = deciderSpec(customerDecider);

const create = (contactChannels?: Array<'EMAIL' | 'PHONE'>): CustomerCommand => ({
  type: 'CreateCustomer', ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', profile,
  initialKycStatus: 'UNVERIFIED', ...(contactChannels ? { contactChannels } : {}), now: T0,
});
const created = (channels: Array<'EMAIL' | 'PHONE'>): CustomerEvent[] => spec.given([]).when(create(channels)).events;
const send = (channel: 'EMAIL' | 'PHONE', seconds = 0): CustomerCommand => ({ type: 'SendContactVerificationCode', channel, policy, now: at(seconds) });
const confirm = (channel: 'EMAIL' | 'PHONE', codeMatches: boolean, seconds = 1): CustomerCommand => ({
  type: 'ConfirmContactVerificationCode', channel, codeMatches, policy, now: at(seconds),
});
const sent = (channel: 'EMAIL' | 'PHONE', seconds = 0): CustomerEvent => ({
  type: 'ContactVerificationCodeSent', data: { ...ref, channel, expiresAt: at(seconds + 300), sentAt: at(seconds) },
});
const rejected = (failedAttempts: number, lockedUntil: string | null, seconds = 1): CustomerEvent => ({
  type: 'ContactVerificationCodeRejected', data: { ...ref, channel: 'EMAIL', failedAttempts, lockedUntil, rejectedAt: at(seconds) },
});

describe('customer decider: contact verification', () => {
  it('records the channels the provider requires at creation, each PENDING; none when it requires none', () => {
    const events = created(['EMAIL', 'PHONE']);
    expect(events[2]).toEqual({
      type: 'ContactVerificationRequirementSet',
      data: { ...ref, channels: { email: 'PENDING', phone: 'PENDING' }, reason: 'CUSTOMER_CREATED', setAt: T0 },
    });
    expect(spec.given([]).when(create()).events.map((event) => event.type)).toEqual(['CustomerCreated', 'CustomerKycStatusChanged']);
  });

  it('sends a code that expires after the policy TTL, and re-sends a new one', () => {
    spec.given(created(['EMAIL'])).when(send('EMAIL')).then([sent('EMAIL')]);
    spec.given([...created(['EMAIL']), sent('EMAIL')]).when(send('EMAIL', 60)).then([sent('EMAIL', 60)]);
  });

  it('answers 409 for a channel the provider does not require, or one already verified', () => {
    spec.given(created(['EMAIL'])).when(send('PHONE')).thenError('CONFLICT', { reason: 'CONTACT_VERIFICATION_NOT_REQUIRED', channel: 'PHONE' });
    spec.given(created([])).when(confirm('EMAIL', true)).thenError('CONFLICT', { reason: 'CONTACT_VERIFICATION_NOT_REQUIRED' });
    const verified: CustomerEvent = { type: 'ContactVerified', data: { ...ref, channel: 'EMAIL', verifiedAt: at(1) } };
    spec.given([...created(['EMAIL']), sent('EMAIL'), verified]).when(send('EMAIL', 2)).thenError('CONFLICT', { reason: 'ALREADY_VERIFIED' });
  });

  it('verifies with the right code; the view status becomes VERIFIED', () => {
    const given = [...created(['EMAIL', 'PHONE']), sent('EMAIL')];
    const verified: CustomerEvent = { type: 'ContactVerified', data: { ...ref, channel: 'EMAIL', verifiedAt: at(1) } };
    spec.given(given).when(confirm('EMAIL', true)).then([verified]);
    const state = spec.state([...given, verified]);
    expect(state.status === 'active' && state.contactVerification).toEqual({
      email: { status: 'VERIFIED', codeExpiresAt: null, failedAttempts: 0, lockedUntil: null },
      phone: { status: 'PENDING', codeExpiresAt: null, failedAttempts: 0, lockedUntil: null },
    });
  });

  it('refuses a confirmation with no code sent, or after the code expired, without counting it', () => {
    spec.given(created(['EMAIL'])).when(confirm('EMAIL', true)).thenError('INVALID_INPUT', { reason: 'NO_CODE_SENT' });
    spec.given([...created(['EMAIL']), sent('EMAIL')]).when(confirm('EMAIL', true, 300)).thenError('INVALID_INPUT', { reason: 'CODE_EXPIRED', expiresAt: at(300) });
  });

  it('counts wrong codes and locks the channel on the last one allowed; a lock that ran out starts again', () => {
    const given = [...created(['EMAIL']), sent('EMAIL')];
    spec.given(given).when(confirm('EMAIL', false)).then([rejected(1, null)]);
    spec.given([...given, rejected(1, null), rejected(2, null)]).when(confirm('EMAIL', false)).then([rejected(3, at(901))]);
    const locked = [...given, rejected(1, null), rejected(2, null), rejected(3, at(901))];
    spec.given(locked).when(confirm('EMAIL', true, 2)).thenError('CONFLICT', { reason: 'VERIFICATION_LOCKED', lockedUntil: at(901), failedAttempts: 3 });
    spec.given(locked).when(send('EMAIL', 2)).thenError('CONFLICT', { reason: 'VERIFICATION_LOCKED' });
    const resent = sent('EMAIL', 901);
    spec.given([...locked, resent]).when(confirm('EMAIL', false, 902)).then([rejected(1, null, 902)]);
  });

  it('a PATCH of a verified email sends it back to PENDING; the phone keeps its status', () => {
    const verified: CustomerEvent = { type: 'ContactVerified', data: { ...ref, channel: 'EMAIL', verifiedAt: at(1) } };
    const given = [...created(['EMAIL', 'PHONE']), sent('EMAIL'), verified, sent('PHONE', 2)];
    const { events } = spec.given(given).when({ type: 'UpdateCustomer', changes: { email: 'new.201@example.com' }, now: at(3) });
    expect(events[1]).toEqual({
      type: 'ContactVerificationRequirementSet',
      data: { ...ref, channels: { email: 'PENDING', phone: 'PENDING' }, reason: 'EMAIL_CHANGED', setAt: at(3) },
    });
    const state = spec.state([...given, ...events]);
    expect(state.status === 'active' && state.contactVerification).toEqual({
      email: { status: 'PENDING', codeExpiresAt: null, failedAttempts: 0, lockedUntil: null },
      phone: { status: 'PENDING', codeExpiresAt: at(302), failedAttempts: 0, lockedUntil: null },
    });
  });

  it('holds a verification back as RESOLVE_ERRORS while a required channel is PENDING', () => {
    const { events } = spec.given(created(['PHONE'])).when({
      type: 'SubmitVerification', verificationId: 'Verification:v',
      scenario: { individual: 'CHECK_REQUIREMENTS', business: 'CHECK_REQUIREMENTS', beneficialOwnerKycStatuses: [] }, now: at(1),
    });
    expect(events).toHaveLength(1);
    expect(events[0].type === 'VerificationSubmitted' && events[0].data.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(events[0].type === 'VerificationSubmitted' && events[0].data.errors).toContainEqual(
      expect.objectContaining({ resourceId: CUSTOMER, type: 'INVALID_FIELD', field: 'phoneNumber' }),
    );
  });

  it('refuses a consent to an End User Terms version never published', () => {
    const consent = { acceptedAt: T0, ipAddress: '203.0.113.7', termsVersion: '1999-01', acceptanceMethod: 'CHECKBOX' };
    spec.given([]).when({ ...create(), profile: { ...profile, endUserTermsConsent: consent } } as CustomerCommand).thenError('END_USER_TERMS_VERSION_NOT_FOUND');
    spec.given(created([])).when({ type: 'UpdateCustomer', changes: { endUserTermsConsent: consent }, now: at(1) }).thenError('END_USER_TERMS_VERSION_NOT_FOUND');
    const current = { ...consent, termsVersion: '2025-10-13' };
    expect(spec.given(created([])).when({ type: 'UpdateCustomer', changes: { endUserTermsConsent: current }, now: at(1) }).events).toHaveLength(1);
  });
});
