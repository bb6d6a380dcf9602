import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import { InternalAccountsQuery, WireTransaction } from '../../accounts';
import { CustomerView, CustomersQuery } from '../../customers';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError } from '../../infra/domain/domain-error';
import { newId, streamNameFor } from '../../infra/ids';
import { priceQuote, rateSnapshotAt } from '../../quotes';
import { initialPayerData, requestedReceiverFields, resolveSandboxUmaSender } from '../../sandbox';
import { IncomingPaymentTerms } from '../domain/incoming-payment.events';
import { INCOMING_PAYMENT_STREAM } from '../streams';
import { wireIncomingPayment } from './wire-incoming-payment';

export interface UmaReceiveRequest {
  senderUmaAddress: string;
  receiverUmaAddress?: string;
  customerId?: string;
  receivingCurrencyCode: string;
  /** Minor units of `receivingCurrencyCode`. */
  receivingCurrencyAmount: number;
}

/** `POST /sandbox/uma/receive`: a sandbox payer on another VASP pays one of the platform's customers. */
export class ReceiveUmaPayment extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly request: UmaReceiveRequest,
  ) {
    super();
  }
}

/**
 * Resolves the payer (a sandbox test address), the receiver (by customer id or UMA address; a
 * customer approved to transact) and the account credited (the receiver's internal account in
 * `receivingCurrencyCode`), prices the payer's side with the quotes' own pricing (receiving
 * amount locked, UMA rail), and records the payment as waiting for the platform's approval.
 * The approval webhook goes out from the recorded event (the `incoming-payments` reactor).
 */
@CommandHandler(ReceiveUmaPayment)
export class ReceiveUmaPaymentHandler implements ICommandHandler<ReceiveUmaPayment, WireTransaction> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: CustomersQuery,
    private readonly accounts: InternalAccountsQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, request }: ReceiveUmaPayment): Promise<WireTransaction> {
    const sender = resolveSandboxUmaSender(request.senderUmaAddress);
    const customer = await this.receiver(platformId, request);
    const accountId = await this.receivingAccount(platformId, customer.id, request.receivingCurrencyCode);
    const now = new Date();
    const priced = priceQuote({
      snapshot: rateSnapshotAt(now),
      sendingCurrency: sender.currency,
      receivingCurrency: request.receivingCurrencyCode,
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: request.receivingCurrencyAmount,
      rail: 'UMA',
    });
    const transactionId = newId('Transaction', now.getTime());
    const terms: IncomingPaymentTerms = {
      transactionId,
      platformId,
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      accountId,
      senderUmaAddress: sender.address,
      receiverUmaAddress: customer.umaAddress,
      sentAmount: { amount: priced.totalSendingAmount, currency: sender.currency },
      receivedAmount: { amount: priced.totalReceivingAmount, currency: request.receivingCurrencyCode },
      exchangeRate: priced.exchangeRateText,
      fees: priced.feesIncluded,
      counterpartyInformation: initialPayerData(sender.address),
      requestedReceiverCustomerInfoFields: requestedReceiverFields({
        individual: customer.customerType === 'INDIVIDUAL',
        hasNationality: customer.customerType === 'INDIVIDUAL' && Boolean(customer.nationality),
        hasAddress: Boolean(customer.address),
      }),
      reference: `UMA-${transactionId.slice(-12).toUpperCase()}`,
      senderBehaviour: sender.behaviour,
    };
    // The platform has the HTTP timeout to answer the webhook, then the approval window.
    const approvalDeadline = new Date(now.getTime() + this.config.webhooks.timeoutMs + this.config.incomingPayments.approvalWindowMs).toISOString();
    const handled = await this.commands.handle(INCOMING_PAYMENT_STREAM, streamNameFor(transactionId), {
      type: 'ReceivePayment',
      terms,
      approvalDeadline,
      now: now.toISOString(),
    });
    return wireIncomingPayment([...handled.recorded, ...handled.events], platformId);
  }

  /** By `customerId` or `receiverUmaAddress`; when both are given they must name the same customer. */
  private async receiver(platformId: string, request: UmaReceiveRequest): Promise<CustomerView> {
    let customerId = request.customerId;
    if (request.receiverUmaAddress !== undefined) {
      const byAddress = await this.customers.findByUmaAddress(platformId, request.receiverUmaAddress);
      if (!byAddress) throw new DomainError('UMA_NOT_FOUND', `No customer of this platform receives at ${request.receiverUmaAddress}`);
      if (customerId !== undefined && customerId !== byAddress.id) {
        throw new DomainError('INVALID_RECEIVER', 'customerId and receiverUmaAddress name different customers', {
          errors: [{ field: 'receiverUmaAddress', constraint: {}, message: `${request.receiverUmaAddress} is not the address of ${customerId}` }],
        });
      }
      customerId = byAddress.id;
    }
    return this.customers.findApprovedToTransact(platformId, customerId!);
  }

  /** The customer's ACTIVE account in the currency (a custodial account before an embedded wallet). */
  private async receivingAccount(platformId: string, customerId: string, currencyCode: string): Promise<string> {
    const accounts = await this.accounts.listForCustomer(platformId, customerId);
    const inCurrency = accounts.filter((account) => account.currency === currencyCode && account.status === 'ACTIVE');
    const account = inCurrency.find((candidate) => candidate.accountType !== 'EMBEDDED_WALLET') ?? inCurrency[0];
    if (!account) {
      const held = [...new Set(accounts.map((candidate) => candidate.currency))];
      throw new DomainError('INVALID_CURRENCY', `The customer has no internal account in ${currencyCode}`, {
        errors: [{ field: 'receivingCurrencyCode', constraint: { enum: held }, message: `The customer receives in ${held.join(', ') || 'no currency yet'}` }],
      });
    }
    return account.accountId;
  }
}
