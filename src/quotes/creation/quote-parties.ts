import { Injectable } from '@nestjs/common';
import { AccountsLedger, ExternalAccountsQuery, LedgerAccountSnapshot, verificationRequiredRefusal } from '../../accounts';
import { CustomersQuery } from '../../customers';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { QuoteScenario, quoteScenarioByName, quoteScenarioFor, resolveSandboxUmaReceiver } from '../../sandbox';
import { QuoteRequest } from './quote-request';
import { QuoteDestination, QuoteSource } from '../domain/quote/quote.events';
import { unpricedPayoutCurrency } from '../pricing/payout-currencies';
import { DestinationAccountType, PaymentRail, isDestinationAccountType, selectRail } from '../pricing/rails';
import { beneficiaryFacts, customerFacts } from './counterparty-facts';
import { CounterpartyFacts, sandboxUmaReceiverFacts } from './counterparty-information';
import { unknownAs } from './quote-creation-refusals';

export interface ResolvedSource {
  source: QuoteSource;
  sendingCurrency: string;
  /** The paying internal account (ACCOUNT sources). */
  account: LedgerAccountSnapshot | null;
  fundingRails: PaymentRail[];
  customerId: string | null;
}

export interface ResolvedDestination {
  accountType: DestinationAccountType;
  receivingCurrency: string;
  rail: PaymentRail;
  destination: QuoteDestination;
  internalAccountId: string | null;
  scenario: QuoteScenario;
  counterparty: () => Promise<CounterpartyFacts>;
  /** 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED for an amount an unproven wallet may not receive. */
  ownershipRefusal?: (receivingAmount: number) => DomainError | null;
}

/**
 * The two ends of a new quote, read from the accounts, customers and sandbox contexts: the paying
 * source (its account, currency and customer) and the destination (its currency, rail, sandbox
 * scenario and the facts its counterparty fields are filled from). Refusals name the field.
 */
@Injectable()
export class QuoteParties {
  constructor(
    private readonly ledger: AccountsLedger,
    private readonly externalAccounts: ExternalAccountsQuery,
    private readonly customers: CustomersQuery,
  ) {}

  /** The paying end: a REALTIME_FUNDING method, or an internal account (and whose customer pays). */
  async source(platformId: string, request: QuoteRequest): Promise<ResolvedSource> {
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
    } else if (!account.customerId && !paysExternalAccount(request)) {
      // Without a customer a platform account pays on the platform's own behalf: only to the
      // platform's own external accounts, which the destination checks.
      throw fboWithoutCustomer();
    }
    const shown: QuoteSource = { sourceType: 'ACCOUNT', accountId: account.accountId };
    if (customerId) shown.customerId = customerId;
    return { source: shown, sendingCurrency: account.currency, account, fundingRails: [], customerId };
  }

  /** The receiving end: an UMA address, an internal account, or the source customer's external account. */
  async destination(platformId: string, request: QuoteRequest, source: ResolvedSource): Promise<ResolvedDestination> {
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
    if (source.account && !source.customerId && external.customerId) throw fboWithoutCustomer();
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
      ownershipRefusal: (receivingAmount) => verificationRequiredRefusal(external, receivingAmount),
    };
  }
}

function paysExternalAccount(request: QuoteRequest): boolean {
  return request.destination.destinationType === 'ACCOUNT' && request.destination.accountId.startsWith('ExternalAccount:');
}

function fboWithoutCustomer(): ValidationError {
  return new ValidationError([{ field: 'source.customerId', constraint: {}, message: 'source.customerId is required when funding from a platform (FBO) account' }]);
}

function railOrThrow(choice: ReturnType<typeof selectRail>): PaymentRail {
  if (choice.error) throw new ValidationError([choice.error]);
  return choice.rail;
}
