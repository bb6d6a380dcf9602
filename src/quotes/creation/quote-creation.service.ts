import { Inject, Injectable } from '@nestjs/common';
import { AccountsLedger, LedgerAccountSnapshot } from '../../accounts';
import { ExternalAccountsQuery } from '../../accounts';
import { CustomersQuery } from '../../customers';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { newId } from '../../infra/ids';
import { PlatformConfig } from '../../platforms';
import { PlatformConfigQuery } from '../../platforms';
import { QuoteScenario, quoteScenarioByName, quoteScenarioFor } from '../../sandbox';
import { resolveSandboxUmaReceiver } from '../../sandbox';
import { buildQuoteExecutionPayload } from '../../shared/wallet-payloads';
import { PaymentInstructionsRecord, QuoteDestination, QuoteSource, QuoteTerms } from '../domain/quote/quote.events';
import { QuoteRequest } from '../http/quote-request';
import { PlatformFee, platformFeeFor } from '../pricing/fee-schedule';
import { insufficientFunds } from '../../accounts';
import { buildPaymentInstructions } from '../pricing/payment-instructions';
import { unpricedPayoutCurrency } from '../pricing/payout-currencies';
import { priceQuote } from '../pricing/price';
import { DestinationAccountType, PaymentRail, isDestinationAccountType, quoteExpiresAt, selectRail } from '../pricing/rails';
import { RateSnapshots } from '../pricing/rate-snapshots';
import { QuoteView, destinationView, quoteView } from '../queries/quote.view';
import { QuoteStore } from '../quote-store';
import { QuoteAuthorizationService } from '../authorization/quote-authorization.service';
import { beneficiaryFacts, customerFacts } from './counterparty-facts';
import { CounterpartyFacts, counterpartyInformation, sandboxUmaReceiverFacts } from './counterparty-information';
import { quoteCreationRefusal, unknownAs, unusableCustomer } from './quote-creation-refusals';

export { quoteCreationRefusal } from './quote-creation-refusals';

interface ResolvedSource {
  source: QuoteSource;
  sendingCurrency: string;
  /** The paying internal account (ACCOUNT sources). */
  account: LedgerAccountSnapshot | null;
  fundingRails: PaymentRail[];
  customerId: string | null;
}

interface ResolvedDestination {
  accountType: DestinationAccountType;
  receivingCurrency: string;
  rail: PaymentRail;
  destination: QuoteDestination;
  internalAccountId: string | null;
  scenario: QuoteScenario;
  counterparty: () => Promise<CounterpartyFacts>;
}

/**
 * `POST /quotes`: resolves the source, the customer and the destination, prices the quote on the
 * current rate snapshot (which it then locks), and records `QuoteCreated` with everything
 * settlement needs. Errors, in order: 404 for unknown accounts and customers, 403/410 for a
 * customer who may not transact, 400 for every other refusal (rails, currencies, amounts, funds).
 */
@Injectable()
export class QuoteCreationService {
  constructor(
    private readonly store: QuoteStore,
    private readonly authorization: QuoteAuthorizationService,
    private readonly ledger: AccountsLedger,
    private readonly externalAccounts: ExternalAccountsQuery,
    private readonly customers: CustomersQuery,
    private readonly platformConfig: PlatformConfigQuery,
    private readonly rates: RateSnapshots,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `POST /quotes`. `immediatelyExecute` then runs the execute path on the new quote (an SCA
   * customer's quote is PENDING_AUTHORIZATION with its challenge, as execute would leave it).
   * Refusals are answered with the statuses the operation declares (quoteCreationRefusal).
   */
  async create(platformId: string, request: QuoteRequest): Promise<QuoteView> {
    try {
      // No receiver lookups are kept yet (`GET /receiver/...`): every lookup id is unknown.
      if (request.lookupId !== null) {
        throw new DomainError('LOOKUP_REQUEST_FAILED', `Lookup request ${request.lookupId} was not found; quote without lookupId or with a current lookup`, {
          lookupId: request.lookupId,
        });
      }
      const created = await this.createQuote(platformId, request);
      if (!request.immediatelyExecute || created.source.sourceType !== 'ACCOUNT') return created;
      return await this.authorization.execute(platformId, created.id, { signatureHeader: undefined, scaFactor: request.scaFactor }).catch((error: unknown) => {
        // The quote exists (PENDING): say which, so it can be executed again or left to expire.
        throw error instanceof DomainError ? new DomainError(error.code, error.message, { ...error.details, quoteId: created.id }) : error;
      });
    } catch (error) {
      throw quoteCreationRefusal(error);
    }
  }

  private async createQuote(platformId: string, request: QuoteRequest): Promise<QuoteView> {
    const createdAt = new Date().toISOString();
    // Lookups run together as soon as what they need is known (the customer and destination
    // checks need the source); their refusals still come out in one fixed order.
    const platformLookup = this.platformConfig.findRaw(platformId).then((found) => {
      if (!found) throw new DomainError('NOT_FOUND', 'Platform not found');
      return found;
    });
    const sourceLookup = this.resolveSource(platformId, request);
    const customerLookup = sourceLookup.then((source) =>
      source.customerId
        ? this.customers.findApprovedToTransact(platformId, source.customerId).catch((error: unknown) => {
            throw unusableCustomer(error, request.source.customerId ? 'source.customerId' : 'source.accountId');
          })
        : null,
    );
    const destinationLookup = sourceLookup.then((source) => this.resolveDestination(platformId, request, source));
    const [platform, source, customer, destination] = await inOrder(platformLookup, sourceLookup, customerLookup, destinationLookup);
    if (destination.internalAccountId !== null && destination.internalAccountId === source.account?.accountId) {
      throw new DomainError('SELF_PAYMENT', 'The source and the destination are the same account');
    }
    if (request.immediatelyExecute && source.account?.accountType === 'EMBEDDED_WALLET') {
      // Execute from a wallet needs a signature over the quote's own payloadToSign.
      throw new ValidationError([
        {
          field: 'immediatelyExecute',
          constraint: {},
          message: 'An EMBEDDED_WALLET source is executed with POST /quotes/{quoteId}/execute and a Service-Wallet-Signature over the quote\'s payloadToSign',
        },
      ]);
    }
    const feeOverride = request.platformFeeOverride ? platformFeeOverrideFor(request.platformFeeOverride, source.sendingCurrency) : null;

    const snapshot = this.rates.current();
    const priced = priceQuote({
      snapshot,
      sendingCurrency: source.sendingCurrency,
      receivingCurrency: destination.receivingCurrency,
      lockedCurrencySide: request.lockedCurrencySide,
      lockedCurrencyAmount: request.lockedCurrencyAmount,
      rail: destination.rail,
      platformFee: feeOverride ?? platformFeeFor(platform.feeConfigs, source.sendingCurrency),
    });
    assertWithinLimits(platform, source.sendingCurrency, priced.totalSendingAmount);
    if (source.account && source.account.available < priced.totalSendingAmount) {
      const current = await this.ledger.snapshot({ platformId, accountId: source.account.accountId });
      if (current.available < priced.totalSendingAmount) {
        throw insufficientFunds({ accountId: current.accountId, available: current.available, requested: priced.totalSendingAmount }, 'quote');
      }
    }

    const quoteId = newId('Quote');
    const rails: PaymentRail[] = [destination.rail, ...source.fundingRails];
    if (source.account?.accountType === 'EMBEDDED_WALLET') rails.push('EMBEDDED_WALLET');
    const override = this.config.sandbox.quoteLifetimeOverrideMs;
    const expiresAt = override ? new Date(Date.parse(createdAt) + override).toISOString() : quoteExpiresAt(createdAt, rails);
    const required = platform.supportedCurrencies.find((entry) => entry.currencyCode === destination.receivingCurrency)?.requiredCounterpartyFields ?? [];

    const terms: QuoteTerms = {
      quoteId,
      transactionId: newId('Transaction'),
      platformId,
      customerId: source.customerId,
      platformCustomerId: customer?.platformCustomerId ?? null,
      source: source.source,
      destination: destination.destination,
      sendingCurrency: source.sendingCurrency,
      receivingCurrency: destination.receivingCurrency,
      totalSendingAmount: priced.totalSendingAmount,
      totalReceivingAmount: priced.totalReceivingAmount,
      exchangeRate: priced.exchangeRateText,
      feesIncluded: priced.feesIncluded,
      platformFeesIncluded: priced.platformFeesIncluded,
      rateDetails: priced.rateDetails,
      rateSnapshotId: priced.rateSnapshotId,
      lockedCurrencySide: request.lockedCurrencySide,
      lockedCurrencyAmount: request.lockedCurrencyAmount,
      paymentRail: destination.rail,
      paymentInstructions: null,
      counterpartyInformation: required.length > 0 ? counterpartyInformation(required, await destination.counterparty()) : null,
      description: request.description,
      ...(request.remittanceInformation !== null ? { remittanceInformation: request.remittanceInformation } : {}),
      ...(request.purposeOfPayment !== null ? { purposeOfPayment: request.purposeOfPayment } : {}),
      ...(request.senderCustomerInfo !== null ? { senderCustomerInfo: request.senderCustomerInfo } : {}),
      ...(request.platformFeeOverride !== null
        ? {
            platformFeeOverride: {
              fixedFee: request.platformFeeOverride.fixedFee,
              currency: request.platformFeeOverride.fixedFeeCurrency,
              variableFeeBps: request.platformFeeOverride.variableFeeBps,
            },
          }
        : {}),
      funding: {
        sourceAccountId: source.account?.accountId ?? null,
        sourceAccountType: source.account?.accountType ?? null,
        destinationInternalAccountId: destination.internalAccountId,
        scenario: destination.scenario.name,
        scenarioSuffix: destination.scenario.suffix,
      },
      createdAt,
      expiresAt,
    };
    terms.paymentInstructions = paymentInstructionsFor(request, terms, source);
    // SCA region: a REALTIME_FUNDING quote starts PENDING_AUTHORIZATION, its instructions withheld.
    const authorization = await this.authorization.planForCreation(terms, request.scaFactor);
    const { state } = await this.store.append({ status: 'none' }, 'no_stream', { type: 'CreateQuote', terms, ...(authorization ? { authorization } : {}) });
    if (authorization) await this.authorization.open(authorization);
    return quoteView(state);
  }

  private async resolveSource(platformId: string, request: QuoteRequest): Promise<ResolvedSource> {
    const source = request.source;
    if (source.sourceType === 'REALTIME_FUNDING') {
      const shown: QuoteSource = { sourceType: 'REALTIME_FUNDING', currency: source.currency };
      if (source.customerId) shown.customerId = source.customerId;
      if (source.method.cryptoNetwork) shown.cryptoNetwork = source.method.cryptoNetwork;
      return { source: shown, sendingCurrency: source.currency, account: null, fundingRails: source.method.rails, customerId: source.customerId };
    }
    // The balance is checked again by the hold at execute: a recent one is enough here, and a
    // shortfall it shows is confirmed on the stream before the quote is refused.
    const account = await this.ledger.recentSnapshot({ platformId, accountId: source.accountId }).catch((error) => {
      throw unknownAs(error, 'source.accountId', 'No internal account with this id');
    });
    let customerId = account.customerId;
    if (source.customerId) {
      if (account.customerId && account.customerId !== source.customerId) {
        throw new ValidationError([{ field: 'source.customerId', constraint: {}, message: 'The source account belongs to another customer' }]);
      }
      customerId = source.customerId;
    } else if (!account.customerId) {
      throw new ValidationError([
        { field: 'source.customerId', constraint: {}, message: 'source.customerId is required when funding from a platform (FBO) account' },
      ]);
    }
    const shown: QuoteSource = { sourceType: 'ACCOUNT', accountId: account.accountId };
    if (customerId) shown.customerId = customerId;
    return { source: shown, sendingCurrency: account.currency, account, fundingRails: [], customerId };
  }

  private async resolveDestination(platformId: string, request: QuoteRequest, source: ResolvedSource): Promise<ResolvedDestination> {
    const destination = request.destination;
    if (destination.destinationType === 'UMA_ADDRESS') {
      const receiver = resolveSandboxUmaReceiver(destination.umaAddress, destination.currency);
      return {
        accountType: 'UMA_ADDRESS',
        receivingCurrency: receiver.currency,
        rail: 'UMA',
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver.address, currency: receiver.currency },
        internalAccountId: null,
        scenario: receiver.scenario,
        counterparty: async () => sandboxUmaReceiverFacts(receiver.address),
      };
    }
    if (destination.accountId.startsWith('InternalAccount:')) {
      const account = await this.ledger.snapshot({ platformId, accountId: destination.accountId }).catch((error) => {
        throw unknownAs(error, 'destination.accountId', 'No internal account with this id');
      });
      const accountType: DestinationAccountType = account.accountType === 'EMBEDDED_WALLET' ? 'EMBEDDED_WALLET' : 'INTERNAL_ACCOUNT';
      const rail = railOrThrow(selectRail({ accountType, requestedRail: destination.paymentRail }));
      return {
        accountType,
        receivingCurrency: account.currency,
        rail,
        destination: { destinationType: 'ACCOUNT', accountId: account.accountId, paymentRail: rail },
        internalAccountId: account.accountId,
        scenario: quoteScenarioByName('SUCCESS'),
        counterparty: async () => (account.customerId ? customerFacts(await this.customers.findById(platformId, account.customerId)) : {}),
      };
    }
    const external = await this.externalAccounts.findById(platformId, destination.accountId);
    if (!external) throw new ValidationError([{ field: 'destination.accountId', constraint: {}, message: 'No external account with this id' }]);
    if (source.customerId && external.customerId !== source.customerId) {
      throw new ValidationError([{ field: 'destination.accountId', constraint: {}, message: "The external account belongs to another customer than the quote's" }]);
    }
    if (!isDestinationAccountType(external.accountType)) {
      throw new ValidationError([{ field: 'destination.accountId', constraint: {}, message: `Quotes cannot pay to ${external.accountType} accounts` }]);
    }
    const unpriced = unpricedPayoutCurrency(external.currency, external.id);
    if (unpriced) throw unpriced;
    const rail = railOrThrow(selectRail({ accountType: external.accountType, requestedRail: destination.paymentRail, accountRails: external.supportedRails }));
    return {
      accountType: external.accountType,
      receivingCurrency: external.currency,
      rail,
      destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail: rail },
      internalAccountId: null,
      scenario: quoteScenarioFor(external.primaryIdentifier),
      counterparty: async () => beneficiaryFacts(external),
    };
  }
}

/** Every result, or the failure of the earliest lookup in the given order (whichever settled first). */
async function inOrder<T extends readonly unknown[]>(...lookups: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(lookups);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

function railOrThrow(choice: ReturnType<typeof selectRail>): PaymentRail {
  if (choice.error) throw new ValidationError([choice.error]);
  return choice.rail;
}

/**
 * `platformFeeOverride` as the platform fee of this quote. Like production, only for USD sources,
 * with the fixed fee in the sending currency; a 100% variable fee leaves nothing to send.
 */
function platformFeeOverrideFor(override: NonNullable<QuoteRequest['platformFeeOverride']>, sendingCurrency: string): PlatformFee {
  if (sendingCurrency !== 'USD') {
    throw new ValidationError([
      { field: 'platformFeeOverride', constraint: {}, message: `platformFeeOverride is supported for USD sources only, not ${sendingCurrency}` },
    ]);
  }
  if (override.fixedFeeCurrency !== sendingCurrency) {
    throw new ValidationError([
      {
        field: 'platformFeeOverride.platformFixedFee.currency',
        constraint: { enum: [sendingCurrency] },
        message: `The fixed fee must be in the sending currency ${sendingCurrency}`,
      },
    ]);
  }
  if (override.variableFeeBps >= 10_000) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', 'A platform variable fee of 100% leaves nothing to send', { platformVariableFeeBps: override.variableFeeBps });
  }
  return { fixedFee: override.fixedFee, variableFeeRate: override.variableFeeBps / 10_000 };
}

function assertWithinLimits(platform: PlatformConfig, currencyCode: string, amount: number): void {
  const limits = platform.supportedCurrencies.find((entry) => entry.currencyCode === currencyCode);
  if (limits && (amount < limits.minAmount || amount > limits.maxAmount)) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `totalSendingAmount must be from ${limits.minAmount} to ${limits.maxAmount} for ${currencyCode}`, {
      minAmount: limits.minAmount,
      maxAmount: limits.maxAmount,
      totalSendingAmount: amount,
    });
  }
}

/**
 * REALTIME_FUNDING: where and how the payer sends the money. EMBEDDED_WALLET source: the exact
 * `payloadToSign` the wallet's session key signs for execute (binds quote, amounts, destination).
 */
function paymentInstructionsFor(request: QuoteRequest, terms: QuoteTerms, source: ResolvedSource): PaymentInstructionsRecord[] | null {
  if (request.source.sourceType === 'REALTIME_FUNDING') {
    return buildPaymentInstructions({
      quoteId: terms.quoteId,
      method: request.source.method,
      amount: terms.totalSendingAmount,
      createdAt: terms.createdAt,
      expiresAt: terms.expiresAt,
      onBehalfOfCustomer: terms.customerId !== null,
    }) as unknown as PaymentInstructionsRecord[];
  }
  if (source.account?.accountType !== 'EMBEDDED_WALLET') return null;
  const payloadToSign = buildQuoteExecutionPayload({
    walletAccountId: source.account.accountId,
    quoteId: terms.quoteId,
    totalSendingAmount: terms.totalSendingAmount,
    sendingCurrency: terms.sendingCurrency,
    totalReceivingAmount: terms.totalReceivingAmount,
    receivingCurrency: terms.receivingCurrency,
    // The destination as the quote shows it: what the customer is shown is what they sign.
    destination: destinationView(terms.destination) as unknown as Record<string, unknown>,
    quoteCreatedAtMs: Date.parse(terms.createdAt),
  });
  return [
    {
      accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign },
      instructionsNotes: `Sign payloadToSign byte for byte with a session key of the wallet and send the result as Service-Wallet-Signature on POST /quotes/${terms.quoteId}/execute before ${terms.expiresAt}.`,
      isPlatformAccount: false,
    },
  ];
}
