/**
 * Hosted KYC/KYB link events of the customer stream (docs/customers.md "Hosted KYC/KYB link").
 * A link's token is never recorded: only its SHA-256, which is what a presented token is matched
 * against. Expired links stay in the state (they are few and cheap) so a late visit can be told
 * "expired" rather than "unknown".
 */
export type KycLinkIssued = {
  type: 'KycLinkIssued';
  data: {
    customerId: string;
    platformId: string;
    linkId: string;
    /** Hex SHA-256 of the token's secret part. */
    tokenHash: string;
    redirectUri: string | null;
    expiresAt: string;
    issuedAt: string;
  };
};

/** The person behind the link submitted it (single use); the verification it runs follows on the stream. */
export type KycLinkCompleted = {
  type: 'KycLinkCompleted';
  data: { customerId: string; platformId: string; linkId: string; completedAt: string };
};

export type KycLinkEvent = KycLinkIssued | KycLinkCompleted;

export const KYC_LINK_EVENT_TYPES: KycLinkEvent['type'][] = ['KycLinkIssued', 'KycLinkCompleted'];

/** A link as the customer's state keeps it. */
export interface KycLinkRecord {
  linkId: string;
  tokenHash: string;
  redirectUri: string | null;
  expiresAt: string;
  issuedAt: string;
  /** Set once the link was used (single use). */
  completedAt: string | null;
}
