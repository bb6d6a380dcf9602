import { deciderSpec } from '../../../../test/support/decider-spec';
import { ProviderAccountCommand, providerAccountDecider } from './provider-account.decider';
import { StablecoinProviderAccountEvent, StablecoinProviderAccountLinked } from './provider-account.events';

const NOW = '2026-05-20T16:35:00.000Z';
const LATER = '2026-05-20T16:36:00.000Z';
const ref = { stablecoinProviderAccountId: 'StablecoinProviderAccount:0199a000-0000-7000-8000-000000000001', platformId: 'Platform:0199a000-0000-7000-8000-0000000000f1' };
const link: Omit<StablecoinProviderAccountLinked['data'], 'linkedAt'> = {
  ...ref,
  provider: 'BRALE',
  providerAccountId: '2VcUIonJeVQzFoBuC7LdFT0dRe4',
  providerEnvironment: 'SANDBOX',
  apiClientId: 'client-002',
  secretRef: 'stablecoin-provider-secret:StablecoinProviderAccount:0199a000-0000-7000-8000-000000000001',
  providerOutcome: 'REVOKE_LATER',
};
const linked: StablecoinProviderAccountEvent = { type: 'StablecoinProviderAccountLinked', data: { ...link, linkedAt: NOW } };
const revoked: StablecoinProviderAccountEvent = { type: 'StablecoinProviderAccountRevoked', data: { ...ref, revokedAt: LATER } };
const invalidated: StablecoinProviderAccountEvent = { type: 'StablecoinProviderAccountInvalidated', data: { ...ref, invalidatedAt: LATER } };
const verdict = (value: 'REVOKED' | 'INVALID'): ProviderAccountCommand => ({ type: 'RecordProviderVerdict', verdict: value, now: LATER });

describe('stablecoin provider account link decider', () => {
  const spec = deciderSpec(providerAccountDecider);

  it('links once, ACTIVE; the event holds a vault reference, never the secret', () => {
    spec.given([]).when({ type: 'LinkProviderAccount', ...link, now: NOW }).then([linked]);
    spec.given([linked]).when({ type: 'LinkProviderAccount', ...link, now: NOW }).then([]);
    expect(spec.state([linked])).toMatchObject({ status: 'ACTIVE', createdAt: NOW, updatedAt: NOW });
    expect(JSON.stringify(linked)).not.toContain('apiClientSecret');
  });

  it('the provider revokes or invalidates an ACTIVE link, for good', () => {
    spec.given([linked]).when(verdict('REVOKED')).then([revoked]);
    spec.given([linked]).when(verdict('INVALID')).then([invalidated]);
    spec.given([linked, revoked]).when(verdict('INVALID')).then([]);
    spec.given([linked, invalidated]).when(verdict('REVOKED')).then([]);
    expect(spec.state([linked, revoked])).toMatchObject({ status: 'REVOKED', updatedAt: LATER });
  });

  it('no link: 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', () => {
    spec.given([]).when(verdict('REVOKED')).thenError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
  });
});
