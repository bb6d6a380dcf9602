/**
 * Events of a stablecoin provider account link (`stablecoinProviderAccount-<uuid>`). The API
 * client secret is never in an event: it is sealed in the key vault under `secretRef`.
 * Never rename an event type: add a new one.
 */
export const STABLECOIN_PROVIDERS = ['BRALE'] as const;
export type StablecoinProvider = (typeof STABLECOIN_PROVIDERS)[number];

export type ProviderEnvironment = 'SANDBOX' | 'PRODUCTION';

export const PROVIDER_ACCOUNT_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const;
export type ProviderAccountStatus = (typeof PROVIDER_ACCOUNT_STATUSES)[number];

/** What the (sandbox) provider will do to the link later, fixed when it is linked. */
export type ProviderLinkOutcome = 'KEEP' | 'REVOKE_LATER' | 'INVALIDATE_LATER';

type LinkRef = { stablecoinProviderAccountId: string; platformId: string };

export interface StablecoinProviderAccountLinked {
  type: 'StablecoinProviderAccountLinked';
  data: LinkRef & {
    provider: StablecoinProvider;
    providerAccountId: string;
    providerEnvironment: ProviderEnvironment;
    apiClientId: string;
    /** Key-vault id of the sealed API client secret. */
    secretRef: string;
    providerOutcome: ProviderLinkOutcome;
    linkedAt: string;
  };
}

export interface StablecoinProviderAccountRevoked {
  type: 'StablecoinProviderAccountRevoked';
  data: LinkRef & { revokedAt: string };
}

/** The provider stopped accepting the link's credentials. */
export interface StablecoinProviderAccountInvalidated {
  type: 'StablecoinProviderAccountInvalidated';
  data: LinkRef & { invalidatedAt: string };
}

export type StablecoinProviderAccountEvent = StablecoinProviderAccountLinked | StablecoinProviderAccountRevoked | StablecoinProviderAccountInvalidated;

export const PROVIDER_ACCOUNT_EVENT_TYPES: StablecoinProviderAccountEvent['type'][] = [
  'StablecoinProviderAccountLinked',
  'StablecoinProviderAccountRevoked',
  'StablecoinProviderAccountInvalidated',
];
