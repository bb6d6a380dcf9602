import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { newId, streamNameFor } from '../../infra/ids';
import { providerLinkScenario, sandboxProviderAccountId } from '../../sandbox';
import { ExistingProviderAccount } from '../domain/provider-account/provider-account.decider';
import { ProviderEnvironment, StablecoinProvider } from '../domain/provider-account/provider-account.events';
import { providerAccountInvalid } from '../domain/stablecoins.errors';
import { StablecoinProviderAccountWire, providerAccountWire } from '../queries/stablecoin.views';
import { PROVIDER_ACCOUNT_STREAM } from '../streams';

/** Key-vault id and purpose of a link's sealed API client secret. */
const providerSecretRef = (linkId: string): string => `stablecoin-provider-secret:${linkId}`;
const SECRET_PURPOSE = 'stablecoin-provider-secret';

function providerEnvironmentOf(mode: AppConfig['mode']): ProviderEnvironment {
  return mode === 'sandbox' ? 'SANDBOX' : 'PRODUCTION';
}

export interface LinkProviderAccountInput {
  provider: StablecoinProvider;
  apiClientId: string;
  apiClientSecret: string;
  providerAccountId: string | null;
}

/** `POST /stablecoin-provider-accounts`. */
export class LinkStablecoinProviderAccount extends Command<StablecoinProviderAccountWire> {
  constructor(
    readonly platformId: string,
    readonly input: LinkProviderAccountInput,
  ) {
    super();
  }
}

/**
 * Verifies the credentials with the provider (the sandbox provider, by the `apiClientId` suffix),
 * seals the secret in the key vault (AES-256-GCM under the master key; never in an event, a log
 * or an answer) and records the link, ACTIVE.
 */
@CommandHandler(LinkStablecoinProviderAccount)
export class LinkStablecoinProviderAccountHandler implements ICommandHandler<LinkStablecoinProviderAccount, StablecoinProviderAccountWire> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, input }: LinkStablecoinProviderAccount): Promise<StablecoinProviderAccountWire> {
    const scenario = providerLinkScenario(input.apiClientId, this.config.mode);
    if (scenario === 'REFUSE') {
      throw providerAccountInvalid({
        reason: 'PROVIDER_CREDENTIALS_REFUSED',
        errors: [{ field: 'apiClientId', constraint: {}, message: 'The provider refused these API credentials' }],
      });
    }
    const linkId = newId('StablecoinProviderAccount');
    const secretRef = providerSecretRef(linkId);
    await this.vault.seal(secretRef, SECRET_PURPOSE, Buffer.from(input.apiClientSecret, 'utf8'));
    const result = await this.commands.handle(PROVIDER_ACCOUNT_STREAM, streamNameFor(linkId), {
      type: 'LinkProviderAccount',
      stablecoinProviderAccountId: linkId,
      platformId,
      provider: input.provider,
      providerAccountId: input.providerAccountId ?? sandboxProviderAccountId(input.apiClientId),
      providerEnvironment: providerEnvironmentOf(this.config.mode),
      apiClientId: input.apiClientId,
      secretRef,
      providerOutcome: scenario,
      now: new Date().toISOString(),
    });
    const link = result.state as ExistingProviderAccount;
    return providerAccountWire(link);
  }
}
