import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor, uuidv7From, uuidv7Millis } from '../../infra/ids';
import { sandboxStablecoinToken } from '../../sandbox';
import { STABLECOINS } from '../../shared/currencies';
import { ExistingStablecoin } from '../domain/stablecoin/stablecoin.decider';
import { fieldRefused } from '../domain/stablecoins.errors';
import { StablecoinWire, stablecoinWire } from '../queries/stablecoin.views';
import { STABLECOIN_STREAM } from '../streams';
import { ProviderAccountLinks } from './provider-account-links';

export interface RegisterStablecoinInput {
  providerTokenIdentifier: string;
  networkTokenIdentifier: string;
  network: 'SPARK';
  stablecoinProviderAccountId: string | null;
}

/** `POST /stablecoins`: links a token the provider created to the platform. */
export class RegisterStablecoin extends Command<StablecoinWire> {
  constructor(
    readonly platformId: string,
    readonly input: RegisterStablecoinInput,
  ) {
    super();
  }
}

/**
 * One coin per (platform, provider token): the coin's id derives from both (a uuid v7 carrying the
 * platform's creation time, like the platform's own accounts), so registering the token again
 * lands on the same stream and is refused with 409 CONFLICT. The coin is enabled for Grid
 * operations (held in internal accounts) only when its symbol is a currency the service keeps
 * accounts in (docs/stablecoins.md).
 */
@CommandHandler(RegisterStablecoin)
export class RegisterStablecoinHandler implements ICommandHandler<RegisterStablecoin, StablecoinWire> {
  constructor(
    private readonly commands: CommandStore,
    private readonly links: ProviderAccountLinks,
  ) {}

  async execute({ platformId, input }: RegisterStablecoin): Promise<StablecoinWire> {
    const link = await this.links.select(platformId, 'BRALE', input.stablecoinProviderAccountId);
    const token = sandboxStablecoinToken(input.providerTokenIdentifier);
    if (!token) {
      throw fieldRefused('providerTokenIdentifier', 'The provider has no token with this identifier', 'PROVIDER_TOKEN_NOT_FOUND');
    }
    const stablecoinId = `Stablecoin:${uuidv7From(`stablecoin:${platformId}:${link.provider}:${input.providerTokenIdentifier}`, uuidv7Millis(platformId) ?? 0)}`;
    const enabled = STABLECOINS.has(token.symbol);
    const result = await this.commands.handle(STABLECOIN_STREAM, streamNameFor(stablecoinId), {
      type: 'RegisterStablecoin',
      stablecoinId,
      platformId,
      ...token,
      network: input.network,
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: enabled ? 'ENABLED' : 'NOT_ENABLED',
      networkTokenIdentifier: input.networkTokenIdentifier,
      currency: enabled ? token.symbol : null,
      provider: link.provider,
      stablecoinProviderAccountId: link.stablecoinProviderAccountId,
      providerEnvironment: link.providerEnvironment,
      providerTokenIdentifier: input.providerTokenIdentifier,
      now: new Date().toISOString(),
    });
    return stablecoinWire(result.state as ExistingStablecoin);
  }
}
