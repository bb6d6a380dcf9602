/**
 * `POST /customers/{customerId}/kyc-link`: a hosted page the customer opens to complete their
 * verification. Single use; it expires at `expiresAt`. No provider SDK token is given: the
 * sandbox's hosted page is served by the service itself.
 * @example
 * {
 *   "kycUrl": "https://api.example.com/2025-10-13/hosted/kyc/0199a000-0000-7000-8000-000000000001.q3Vh0Yk2pQe7mJ1wXr9sLbT4nC8dF6aZ0uK5yG2hE1o",
 *   "expiresAt": "2025-10-14T12:00:00.000Z",
 *   "provider": "SUMSUB"
 * }
 */
export interface KycLinkView {
  kycUrl: string;
  expiresAt: string;
  /** The reference's KycProvider: the provider whose flow the link stands for. */
  provider: 'SUMSUB';
}
