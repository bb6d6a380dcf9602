import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { newId, parseId, streamNameFor } from '../../infra/ids';
import { stablecoinOperationScenario } from '../../sandbox';
import { MAX_AMOUNT_MINOR, currency } from '../../shared/currencies';
import { ExistingStablecoin } from '../domain/stablecoin/stablecoin.decider';
import { fieldRefused, stablecoinNotFound } from '../domain/stablecoins.errors';
import { StablecoinOperationWire, stablecoinOperationWire } from '../queries/stablecoin.views';
import { STABLECOIN_STREAM } from '../streams';
import { OperationCommits } from './operation-commits';
import { BurnInput, MintInput, OperationPlanner } from './operation-plans';
import { ProviderAccountLinks } from './provider-account-links';

/** How long the provider waits for the external funding of a wire-funded mint or an external-source burn. */
export const FUNDING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export type OperationRequest = { amount: string; description: string | null } & (
  | { operationType: 'MINT'; mint: MintInput }
  | { operationType: 'BURN'; burn: BurnInput }
);

/** `POST /stablecoins/{id}/mints` and `/burns`. */
export class CreateStablecoinOperation extends Command<StablecoinOperationWire> {
  constructor(
    readonly platformId: string,
    readonly stablecoinId: string,
    readonly request: OperationRequest,
  ) {
    super();
  }
}

/**
 * Opens the operation: the coin's stream decides the reservation (a burn reserves its amount, at
 * the stream's revision, so concurrent burns never pass the outstanding supply), the ledger holds
 * an internal source's funds (a short balance answers 400 with nothing recorded) and the
 * operation is recorded, in one commit where the event store can (OperationCommits). The
 * provider's steps follow through the `stablecoin-provider` reactor.
 */
@CommandHandler(CreateStablecoinOperation)
export class CreateStablecoinOperationHandler implements ICommandHandler<CreateStablecoinOperation, StablecoinOperationWire> {
  constructor(
    private readonly commands: CommandStore,
    private readonly commits: OperationCommits,
    private readonly links: ProviderAccountLinks,
    private readonly planner: OperationPlanner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, stablecoinId, request }: CreateStablecoinOperation): Promise<StablecoinOperationWire> {
    const coin = await this.coinOf(platformId, stablecoinId);
    await this.links.usable(platformId, coin.stablecoinProviderAccountId);
    const amounts = amountsOf(coin, request.amount);
    const operationId = newId('StablecoinOperation');
    const plan =
      request.operationType === 'MINT'
        ? await this.planner.mint(coin, operationId, request.mint, amounts)
        : await this.planner.burn(coin, operationId, request.burn, amounts);
    const now = new Date().toISOString();
    const providerScenario = stablecoinOperationScenario(request.description, this.config.mode);
    const expiresInMs = providerScenario === 'EXPIRE' ? this.config.sandbox.slowFailureDelayMs : FUNDING_WINDOW_MS;
    const operation = await this.commits.open(
      {
        type: 'CreateOperation',
        operationId,
        stablecoinId,
        platformId,
        operationType: request.operationType,
        status: plan.awaitsFunding ? 'PENDING_FUNDING' : 'PENDING_PROVIDER',
        amount: amounts.coin,
        fiatAmount: amounts.fiat,
        baseCurrency: coin.baseCurrency,
        provider: coin.provider,
        providerEnvironment: coin.providerEnvironment,
        stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
        source: plan.source,
        destination: plan.destination,
        fundingInstructions: plan.fundingInstructions,
        estimatedDelivery: plan.estimatedDelivery,
        expiresAt: plan.awaitsFunding ? new Date(Date.parse(now) + expiresInMs).toISOString() : null,
        description: request.description,
        providerScenario,
        ledger: plan.ledger,
        createdAt: now,
      },
      plan.ledger.hold,
    );
    return stablecoinOperationWire(operation);
  }

  private async coinOf(platformId: string, stablecoinId: string): Promise<ExistingStablecoin> {
    if (!parseId('Stablecoin', stablecoinId)) throw stablecoinNotFound();
    const { state } = await this.commands.load(STABLECOIN_STREAM, streamNameFor(stablecoinId));
    if (state.status === 'none' || state.platformId !== platformId) throw stablecoinNotFound();
    return state;
  }
}

/**
 * The amount in the coin's smallest unit and in the base currency's minor units: it must convert
 * exactly (a coin of 6 decimals against USD moves in steps of 10,000 units, one cent).
 */
export function amountsOf(coin: Pick<ExistingStablecoin, 'decimals' | 'baseCurrency'>, text: string): { coin: number; fiat: number } {
  const units = BigInt(text);
  if (units <= 0n || units > BigInt(MAX_AMOUNT_MINOR)) throw fieldRefused('amount', `amount must be from 1 to ${MAX_AMOUNT_MINOR}`, 'AMOUNT_OUT_OF_RANGE');
  const fiatDecimals = currency(coin.baseCurrency).decimals;
  const unitsPerMinor = 10n ** BigInt(Math.max(0, coin.decimals - fiatDecimals));
  if (units % unitsPerMinor !== 0n) {
    throw fieldRefused('amount', `amount must convert exactly to whole ${coin.baseCurrency} minor units (a multiple of ${unitsPerMinor})`, 'AMOUNT_NOT_WHOLE_CENTS');
  }
  const fiat = (units / unitsPerMinor) * 10n ** BigInt(Math.max(0, fiatDecimals - coin.decimals));
  return { coin: Number(units), fiat: Number(fiat) };
}
