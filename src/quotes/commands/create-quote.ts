import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountsLedger, insufficientFunds } from '../../accounts';
import { assertEndUserTermsAccepted, CustomersQuery } from '../../customers';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { newId } from '../../infra/ids';
import { PlatformConfigQuery } from '../../platforms';
import { counterpartyInformation } from '../creation/counterparty-information';
import { quoteCreationRefusal, unusableCustomer } from '../creation/quote-creation-refusals';
import { QuoteLookup } from '../creation/quote-lookup';
import { QuoteParties } from '../creation/quote-parties';
import { QuoteRequest } from '../creation/quote-request';
import { assertWithinLimits, inOrder, paymentInstructionsFor, platformFeeOverrideFor } from '../creation/quote-terms';
import { QuoteTerms } from '../domain/quote/quote.events';
import { platformFeeFor } from '../pricing/fee-schedule';
import { priceQuote } from '../pricing/price';
import { PaymentRail, quoteExpiresAt } from '../pricing/rails';
import { RateSnapshots } from '../pricing/rate-snapshots';
import { QuoteView, quoteView } from '../queries/quote.view';
import { QuoteStore } from '../quote-store';
import { ExecuteQuote } from './execute-quote';
import { QuoteSca } from './quote-sca';

export type { QuoteRequest };

/** `POST /quotes`: answers the quote (PENDING_AUTHORIZATION for an SCA customer's REALTIME_FUNDING quote). */
export class CreateQuote extends Command<QuoteView> {
  constructor(
    readonly platformId: string,
    readonly request: QuoteRequest,
  ) {
    super();
  }
}

/**
 * Resolves the source, the customer and the destination, prices the quote on the current rate
 * snapshot (which it then locks), and records `QuoteCreated` with everything settlement needs.
 * Errors, in order: a named receiver lookup that is unknown, expired or for another destination
 * (400 LOOKUP_REQUEST_FAILED), 404 for unknown accounts and customers, 403/410 for a customer who
 * may not transact, 400 for every other refusal (rails, currencies, amounts, funds). `immediatelyExecute`
 * then sends ExecuteQuote for the new quote (an SCA customer's quote is PENDING_AUTHORIZATION with
 * its challenge, as execute would leave it). Refusals are answered with the statuses the
 * operation declares (quoteCreationRefusal).
 */
@CommandHandler(CreateQuote)
export class CreateQuoteHandler implements ICommandHandler<CreateQuote, QuoteView> {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly store: QuoteStore,
    private readonly sca: QuoteSca,
    private readonly parties: QuoteParties,
    private readonly lookup: QuoteLookup,
    private readonly ledger: AccountsLedger,
    private readonly customers: CustomersQuery,
    private readonly platformConfig: PlatformConfigQuery,
    private readonly rates: RateSnapshots,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, request }: CreateQuote): Promise<QuoteView> {
    try {
      // A named receiver lookup must still hold for this destination (nothing is read without one).
      if (request.lookupId !== null) await this.lookup.assertUsable(platformId, request.lookupId, request.destination, new Date().toISOString());
      const created = await this.createQuote(platformId, request);
      if (!request.immediatelyExecute || created.source.sourceType !== 'ACCOUNT') return created;
      return await this.commandBus.execute(new ExecuteQuote(platformId, created.id, undefined, request.scaFactor)).catch((error: unknown) => {
        // The quote exists (PENDING): say which, so it can be executed again or left to expire.
        throw error instanceof DomainError ? new DomainError(error.code, error.message, { ...error.details, quoteId: created.id }) : error;
      });
    } catch (error) {
      throw quoteCreationRefusal(error);
    }
  }

  /** Resolves, prices and records the quote (PENDING, or PENDING_AUTHORIZATION with its first challenge). */
  private async createQuote(platformId: string, request: QuoteRequest): Promise<QuoteView> {
    const createdAt = new Date().toISOString();
    // Lookups run together as soon as what they need is known (the customer and destination
    // checks need the source); their refusals still come out in one fixed order.
    const platformLookup = this.platformConfig.findRaw(platformId).then((found) => {
      if (!found) throw new DomainError('NOT_FOUND', 'Platform not found');
      return found;
    });
    const sourceLookup = this.parties.source(platformId, request);
    const customerLookup = sourceLookup.then((source) =>
      source.customerId
        ? this.customers.findApprovedToTransact(platformId, source.customerId).catch((error: unknown) => {
            throw unusableCustomer(error, request.source.customerId ? 'source.customerId' : 'source.accountId');
          })
        : null,
    );
    const destinationLookup = sourceLookup.then((source) => this.parties.destination(platformId, request, source));
    const [platform, source, customer, destination] = await inOrder(platformLookup, sourceLookup, customerLookup, destinationLookup);
    if (customer) assertEndUserTermsAccepted(platform, customer);
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
    const unverified = destination.ownershipRefusal?.(priced.totalReceivingAmount);
    if (unverified) throw unverified;
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
    const authorization = await this.sca.planForCreation(terms, request.scaFactor);
    const { state } = await this.store.append({ status: 'none' }, 'no_stream', { type: 'CreateQuote', terms, ...(authorization ? { authorization } : {}) });
    if (authorization) await this.sca.open(authorization);
    return quoteView(state);
  }
}
