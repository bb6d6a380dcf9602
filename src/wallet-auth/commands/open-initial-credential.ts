import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InitialCredentials, initialCredentialId } from '../services/initial-credentials';
import { WalletAuthStore } from '../services/wallet-auth.store';

/**
 * Opens a new embedded wallet's EMAIL_OTP credential for the customer's email (SPEC.md "Auth
 * credential"). Sent in the POST /customers request (a customer-created hook, so the answer
 * already includes it) and again by the `wallet-initial-credential` reactor on the wallet's
 * `InternalAccountOpened` (crash safety).
 */
export class OpenInitialCredential extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly accountId: string,
    readonly customerId: string,
    /** The wallet's opening time: the credential's registration time. */
    readonly openedAt: string,
  ) {
    super();
  }
}

/**
 * The deterministic credential id and the decider make both sends one registration. A customer
 * without an email gets no initial credential: the platform registers the first one itself.
 */
@CommandHandler(OpenInitialCredential)
export class OpenInitialCredentialHandler implements ICommandHandler<OpenInitialCredential, void> {
  constructor(
    private readonly store: WalletAuthStore,
    private readonly initialCredentials: InitialCredentials,
  ) {}

  async execute({ platformId, accountId, customerId, openedAt }: OpenInitialCredential): Promise<void> {
    const { email } = await this.initialCredentials.customerContact(customerId);
    if (email === null) return;
    const handled = await this.store.handleWallet(accountId, {
      type: 'RegisterInitialCredential',
      platformId,
      accountId,
      credentialId: initialCredentialId(accountId),
      email,
      now: openedAt,
    });
    // The reactor may have opened it first: the POST /customers answer still waits until the read
    // model shows it.
    if (handled.events.length === 0) await this.store.includeWalletInOwnWrites(accountId);
  }
}
