import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ExternalAccountsQuery } from '../../accounts';
import { CustomerView, CustomersQuery } from '../../customers';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { newId, streamNameFor } from '../../infra/ids';
import { PlatformConfig, PlatformConfigQuery } from '../../platforms';
import { resolveSandboxUmaReceiver } from '../../sandbox';
import { isCurrencyCode } from '../../shared/currencies';
import { LookupDestination, PayerDataField, ReceiverLookup } from '../domain/lookup/lookup.decider';
import { platformFeeFor } from '../pricing/fee-schedule';
import { unpricedPayoutCurrency } from '../pricing/payout-currencies';
import { PaymentRail, isDestinationAccountType, quoteExpiresAt, selectRail } from '../pricing/rails';
import { RateSnapshots } from '../pricing/rate-snapshots';
import { receivingEstimate } from '../pricing/receiving-estimate';
import { LOOKUP_STREAM } from '../streams';

export type LookupTarget = { kind: 'UMA_ADDRESS'; umaAddress: string } | { kind: 'EXTERNAL_ACCOUNT'; accountId: string };

/** Who sends: at least one of the two (the controller checks it); both must name the same customer. */
export interface LookupSender {
  customerId: string | null;
  senderUmaAddress: string | null;
}

/** `GET /receiver/uma/{address}`, `GET /receiver/external-account/{id}`: answers the recorded lookup. */
export class LookUpReceiver extends Command<ReceiverLookup> {
  constructor(
    readonly platformId: string,
    readonly target: LookupTarget,
    readonly sender: LookupSender,
  ) {
    super();
  }
}

/*
 * What the sandbox's receiving institutions ask about the payer. The mandatory field is one the
 * service always holds and sends itself (the sender's UMA address), so no quote is refused for
 * payer data; `senderCustomerInfo` on the quote carries the rest.
 */
const UMA_PAYER_DATA: readonly PayerDataField[] = [
  { name: 'IDENTIFIER', mandatory: true },
  { name: 'FULL_NAME', mandatory: false },
];

interface ResolvedReceiver {
  destination: LookupDestination;
  currency: string;
  rail: PaymentRail;
  payerData: readonly PayerDataField[];
}

/**
 * Resolves the sender (one of the platform's customers) and the receiver (a sandbox UMA test
 * receiver, or the sender's external account), prices the receiver's currency as POST /quotes
 * would now, and records `ReceiverLookedUp` (its own stream, in the audit history). The lookup
 * lives as long as a quote paying out on the receiver's rail (SANDBOX_QUOTE_LIFETIME_MS overrides
 * it like quotes). Errors: 400 naming the sender field, 404 UMA_NOT_FOUND / REFERENCE_NOT_FOUND
 * for the receiver, 400 for an account quotes cannot pay.
 */
@CommandHandler(LookUpReceiver)
export class LookUpReceiverHandler implements ICommandHandler<LookUpReceiver, ReceiverLookup> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: CustomersQuery,
    private readonly externalAccounts: ExternalAccountsQuery,
    private readonly platformConfig: PlatformConfigQuery,
    private readonly rates: RateSnapshots,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, target, sender }: LookUpReceiver): Promise<ReceiverLookup> {
    const lookedUpAt = new Date().toISOString();
    const platform = await this.platformConfig.findRaw(platformId);
    if (!platform) throw new DomainError('NOT_FOUND', 'Platform not found');
    const customer = await this.senderOf(platformId, sender);
    const receiver = await this.receiverOf(platformId, target, customer, sender);
    const sendingCurrency = sendingCurrencyOf(platform, customer);
    const snapshot = this.rates.current();
    const estimate = receivingEstimate(
      { snapshot, sendingCurrency, receivingCurrency: receiver.currency, rail: receiver.rail, platformFee: platformFeeFor(platform.feeConfigs, sendingCurrency) },
      platform.supportedCurrencies.find((entry) => entry.currencyCode === sendingCurrency) ?? null,
    );
    const override = this.config.sandbox.quoteLifetimeOverrideMs;
    const lookup: ReceiverLookup = {
      lookupId: newId('LookupRequest'),
      platformId,
      customerId: customer.id,
      senderUmaAddress: sender.senderUmaAddress,
      destination: receiver.destination,
      sendingCurrency,
      supportedCurrencies: [{ currency: receiver.currency, ...estimate }],
      requiredPayerDataFields: receiver.payerData.map((field) => ({ ...field })),
      rateSnapshotId: snapshot.id,
      lookedUpAt,
      expiresAt: override ? new Date(Date.parse(lookedUpAt) + override).toISOString() : quoteExpiresAt(lookedUpAt, [receiver.rail]),
    };
    await this.commands.handle(LOOKUP_STREAM, streamNameFor(lookup.lookupId), { type: 'RecordReceiverLookup', lookup });
    return lookup;
  }

  /** The platform's customer named by `customerId` and/or `senderUmaAddress` (400 on the field otherwise). */
  private async senderOf(platformId: string, sender: LookupSender): Promise<CustomerView> {
    if (sender.customerId !== null) {
      const customer = await this.customers.findById(platformId, sender.customerId);
      if (!customer) throw fieldError('customerId', 'No customer with this id');
      if (customer.isDeleted) throw fieldError('customerId', 'The customer was deleted');
      if (sender.senderUmaAddress !== null && customer.umaAddress.toLowerCase() !== sender.senderUmaAddress.toLowerCase()) {
        throw fieldError('senderUmaAddress', `senderUmaAddress is not the UMA address of ${customer.id}`);
      }
      return customer;
    }
    const page = await this.customers.list(platformId, { umaAddress: sender.senderUmaAddress! }, { limit: 1, cursor: null });
    const customer = page.data[0];
    if (!customer) throw fieldError('senderUmaAddress', 'No customer of this platform has this UMA address');
    return customer;
  }

  private async receiverOf(platformId: string, target: LookupTarget, customer: CustomerView, sender: LookupSender): Promise<ResolvedReceiver> {
    if (target.kind === 'UMA_ADDRESS') {
      // 404 UMA_NOT_FOUND when no sandbox test receiver answers (declared by the lookup).
      const receiver = resolveSandboxUmaReceiver(target.umaAddress);
      return { destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver.address }, currency: receiver.currency, rail: 'UMA', payerData: UMA_PAYER_DATA };
    }
    const external = await this.externalAccounts.findById(platformId, target.accountId);
    if (!external) throw new DomainError('REFERENCE_NOT_FOUND', 'External account not found');
    if (external.customerId !== customer.id) {
      throw fieldError(sender.customerId !== null ? 'customerId' : 'senderUmaAddress', `${external.id} belongs to another customer than the sender`);
    }
    if (!isDestinationAccountType(external.accountType)) throw fieldError('accountId', `Quotes cannot pay to ${external.accountType} accounts`);
    const unpriced = unpricedPayoutCurrency(external.currency, external.id);
    if (unpriced) throw new DomainError(unpriced.code, unpriced.message, { errors: [{ field: 'accountId', constraint: {}, message: unpriced.message }] });
    // The rail POST /quotes uses when the quote names none.
    const choice = selectRail({ accountType: external.accountType, requestedRail: null, accountRails: external.supportedRails });
    if (choice.error) throw new ValidationError([{ ...choice.error, field: 'accountId' }]);
    return { destination: { destinationType: 'ACCOUNT', accountId: external.id }, currency: external.currency, rail: choice.rail, payerData: [] };
  }
}

/**
 * The currency the estimate is made from: the first of the platform's supported currencies the
 * customer holds (customers get an internal account in each; `currencies` narrows them).
 */
function sendingCurrencyOf(platform: PlatformConfig, customer: CustomerView): string {
  const held = platform.supportedCurrencies.map((entry) => entry.currencyCode).filter((code) => isCurrencyCode(code) && (!customer.currencies || customer.currencies.includes(code)));
  return held[0] ?? 'USD';
}

function fieldError(field: string, message: string): ValidationError {
  return new ValidationError([{ field, constraint: {}, message }]);
}
