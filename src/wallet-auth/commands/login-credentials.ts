import { Injectable } from '@nestjs/common';
import { CredentialDetails } from '../domain/wallet/wallet.events';
import { credentialNotFound } from '../domain/wallet-auth.errors';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { CredentialView } from '../queries/wallet-auth.views';
import { RateLimitedOperation, WalletRateLimiter } from '../services/rate-limiter';
import { WalletAuthStore } from '../services/wallet-auth.store';

export interface LocatedCredential {
  platformId: string;
  accountId: string;
  credential: CredentialDetails;
  view: CredentialView;
}

/**
 * The first step of both login commands (IssueCredentialChallenge, VerifyCredential): finds the
 * credential (404 for unknown ids and other platforms') and spends one unit of its rate budget.
 */
@Injectable()
export class LoginCredentials {
  constructor(
    private readonly store: WalletAuthStore,
    private readonly query: WalletAuthQuery,
    private readonly limiter: WalletRateLimiter,
  ) {}

  async locate(platformId: string, credentialId: string, operation: RateLimitedOperation): Promise<LocatedCredential> {
    const location = await this.query.findCredential(platformId, credentialId);
    if (!location) throw credentialNotFound();
    await this.limiter.consume(platformId, credentialId, operation);
    const wallet = await this.store.loadWallet(location.accountId);
    const credential = wallet.credentials[credentialId];
    if (!credential) throw credentialNotFound();
    return { platformId, accountId: location.accountId, credential, view: location.view };
  }
}
