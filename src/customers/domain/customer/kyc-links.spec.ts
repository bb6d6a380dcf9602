import { deciderSpec } from '../../../../test/support/decider-spec';
import { CustomerCommand, customerDecider } from './customer.decider';
import { CustomerEvent, CustomerProfile } from './customer.events';

const T0 = '2025-10-13T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { customerId: CUSTOMER, platformId: 'Platform:p' };
const incomplete: CustomerProfile = {
  region: 'US', email: 'jane@example.com', phoneNumber: null, address: null, fullName: 'Jane Doe', birthDate: null, nationality: null,
  taxIdType: null, taxIdentifier: null, businessInfo: null, beneficialOwners: [],
};
const spec = deciderSpec(customerDecider);

const created = (contactChannels?: Array<'EMAIL' | 'PHONE'>): CustomerEvent[] =>
  spec.given([]).when({
    type: 'CreateCustomer', ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', profile: incomplete,
    initialKycStatus: 'UNVERIFIED', ...(contactChannels ? { contactChannels } : {}), now: T0,
  }).events;
const issue = (linkId = 'KycLink:1', tokenHash = 'hash-1'): CustomerCommand => ({
  type: 'IssueKycLink', linkId, tokenHash, redirectUri: 'https://app.example.com/done', expiresAt: at(3600), now: at(1),
});
const issued = (linkId = 'KycLink:1', tokenHash = 'hash-1'): CustomerEvent => ({
  type: 'KycLinkIssued', data: { ...ref, linkId, tokenHash, redirectUri: 'https://app.example.com/done', expiresAt: at(3600), issuedAt: at(1) },
});
const complete = (tokenHash = 'hash-1', seconds = 60): CustomerCommand => ({ type: 'CompleteKycLink', tokenHash, now: at(seconds) });
const completed = (seconds = 60): CustomerEvent => ({ type: 'KycLinkCompleted', data: { ...ref, linkId: 'KycLink:1', completedAt: at(seconds) } });

describe('customer decider: hosted KYC links', () => {
  it('issues a link without touching the customer status; each call adds one, earlier ones stay', () => {
    spec.given(created()).when(issue()).then([issued()]);
    const state = spec.state([...created(), issued(), issued('KycLink:2', 'hash-2')]);
    expect(state.status === 'active' && state.kycLinks?.map((link) => [link.linkId, link.completedAt])).toEqual([['KycLink:1', null], ['KycLink:2', null]]);
    expect(state.status === 'active' && [state.kycStatus, state.updatedAt]).toEqual(['UNVERIFIED', T0]);
  });

  it('refuses to issue while contact verification is pending (409), and for a deleted customer (404)', () => {
    spec.given(created(['EMAIL'])).when(issue()).thenError('CONFLICT', { reason: 'CONTACT_VERIFICATION_REQUIRED', fields: ['email'] });
    const verified: CustomerEvent = { type: 'ContactVerified', data: { ...ref, channel: 'EMAIL', verifiedAt: at(1) } };
    const sent: CustomerEvent = { type: 'ContactVerificationCodeSent', data: { ...ref, channel: 'EMAIL', expiresAt: at(300), sentAt: at(0) } };
    spec.given([...created(['EMAIL']), sent, verified]).when(issue()).then([issued()]);
    const deleted: CustomerEvent = { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', deletedAt: at(1) } };
    spec.given([...created(), deleted]).when(issue()).thenError('USER_NOT_FOUND');
    spec.given([]).when(issue()).thenError('USER_NOT_FOUND');
  });

  it('marks the link used once; the status is left to the verification that follows', () => {
    spec.given([...created(), issued(), issued('KycLink:2', 'hash-2')]).when(complete()).then([completed()]);
    const state = spec.state([...created(), issued(), issued('KycLink:2', 'hash-2'), completed()]);
    expect(state.status === 'active' && state.kycLinks?.map((link) => link.completedAt)).toEqual([at(60), null]);
    expect(state.status === 'active' && state.kycStatus).toBe('UNVERIFIED');
  });

  it('refuses an unknown token, a used link, an expired link, a deleted customer and one already resolved', () => {
    spec.given([...created(), issued()]).when(complete('other')).thenError('NOT_FOUND', { reason: 'KYC_LINK_NOT_FOUND' });
    spec.given([]).when(complete()).thenError('NOT_FOUND', { reason: 'KYC_LINK_NOT_FOUND' });
    spec.given([...created(), issued(), completed()]).when(complete('hash-1', 61)).thenError('CONFLICT', { reason: 'KYC_LINK_USED' });
    spec.given([...created(), issued()]).when(complete('hash-1', 3600)).thenError('EXPIRED', { reason: 'KYC_LINK_EXPIRED', expiresAt: at(3600) });
    const deleted: CustomerEvent = { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', deletedAt: at(2) } };
    spec.given([...created(), issued(), deleted]).when(complete()).thenError('CUSTOMER_DELETED', { reason: 'CUSTOMER_DELETED' });
    const approved: CustomerEvent = {
      type: 'CustomerKycStatusChanged', data: { ...ref, previousStatus: 'UNVERIFIED', kycStatus: 'APPROVED', verificationId: null, changedAt: at(2) },
    };
    spec.given([...created(), issued(), approved]).when(complete()).thenError('INVALID_INPUT', { reason: 'VERIFICATION_ALREADY_RESOLVED' });
  });
});
