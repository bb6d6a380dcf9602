import { Module, OnModuleInit } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { CustomerLifecycleHooks } from '../customers';
import { CustomersModule } from '../customers';
import { ReactorRegistry } from '../infra/infra.module';
import { PlatformsModule } from '../platforms';
import { CredentialsController } from './http/credentials.controller';
import { SessionsController } from './http/sessions.controller';
import { WalletAccountsController } from './http/wallet-accounts.controller';
import { WalletAuthQuery } from './queries/wallet-auth.query';
import { initialCredentialReactor } from './reactors/initial-credential.reactor';
import { CredentialRegistration } from './services/credential-registration';
import { CredentialRemoval } from './services/credential-removal';
import { InitialCredentials } from './services/initial-credentials';
import { KeyLogin } from './services/key-login';
import { OTP_DELIVERY, OtpCodes, UnwiredOtpDelivery } from './services/otp-codes';
import { OtpLogin } from './services/otp-login';
import { WalletQuoteSignatureVerifier } from './services/quote-signature.verifier';
import { WalletRateLimiter } from './services/rate-limiter';
import { SessionActions } from './services/session-actions';
import { SignedRequests } from './services/signed-requests';
import { WalletAccountActions } from './services/wallet-account-actions';
import { WalletAccounts } from './services/wallet-accounts';
import { WalletAuthStore } from './services/wallet-auth.store';
import { WalletClock } from './services/wallet-clock';
import { WalletLogins } from './services/wallet-logins';
import { WalletSessions } from './services/wallet-sessions';

/**
 * Embedded wallets (issue 7): credentials, login flows, sessions, two-step signed actions, the
 * wallet's export and privacy, and the session-key check of quote execution (exported as
 * WalletQuoteSignatureVerifier for the quotes context's verifier port).
 */
@Module({
  imports: [AccountsModule, CustomersModule, PlatformsModule],
  controllers: [CredentialsController, SessionsController, WalletAccountsController],
  providers: [
    WalletClock,
    WalletAuthStore,
    WalletAuthQuery,
    WalletAccounts,
    SignedRequests,
    WalletSessions,
    WalletRateLimiter,
    OtpCodes,
    { provide: OTP_DELIVERY, useValue: new UnwiredOtpDelivery() },
    OtpLogin,
    KeyLogin,
    WalletLogins,
    CredentialRegistration,
    CredentialRemoval,
    SessionActions,
    WalletAccountActions,
    InitialCredentials,
    WalletQuoteSignatureVerifier,
  ],
  exports: [WalletQuoteSignatureVerifier, WalletAuthQuery, WalletClock],
})
export class WalletAuthModule implements OnModuleInit {
  constructor(
    private readonly initialCredentials: InitialCredentials,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly reactors: ReactorRegistry,
    private readonly limiter: WalletRateLimiter,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.limiter.ensureSchema();
    // Runs after the accounts context's hook (AccountsModule is imported, so initialised first),
    // once the wallet account exists: the POST /customers answer then includes the credential.
    this.hooks.onCustomerCreated('wallet-initial-credential', (customer) =>
      this.initialCredentials.openForCustomer({ platformId: customer.platformId, customerId: customer.customerId }),
    );
    this.reactors.register(initialCredentialReactor(this.initialCredentials));
  }
}
