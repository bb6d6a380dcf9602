import { Inject, Injectable } from '@nestjs/common';
import { CustomersQuery } from '../../customers';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { newId, streamNameFor } from '../../infra/ids';
import { recordAppendedPosition } from '../../infra/request-context';
import { PlatformConfigQuery } from '../../platforms';
import { lastThree } from '../../sandbox';
import { transferScenario } from '../../sandbox';
import { TransactionCommand, TransactionState, transactionDecider } from '../domain/transaction/transaction.decider';
import { TransferParties } from '../domain/transaction/transaction.events';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { ExternalAccountDetails } from '../queries/external-account.view';
import { ExternalAccountsQuery } from '../queries/external-accounts.query';
import { InternalAccountView, internalAccountView } from '../queries/internal-account.view';
import { InternalAccountDetails, InternalAccountsQuery } from '../queries/internal-accounts.query';
import { TransactionView, foldTransactionRow } from '../queries/transaction.view';
import { WireTransaction, transactionOnWire } from '../queries/transaction-wire';
import { TRANSFER_TRANSACTION_REDUCERS } from '../queries/transfer-transaction.reducers';
import { INSUFFICIENT_FUNDS, insufficientFunds } from '../ledger/insufficient-funds';
import { CommandStore } from '../../infra/commands/command-store';
import { TRANSFER_STREAM } from '../streams';
import { assertSameCurrency, pickRail } from './transfer-checks';

export interface TransferRequest {
  sourceAccountId: string;
  destinationAccountId: string;
  paymentRail: string | null;
  /** Minor units; absent on a transfer-out: the source's whole available balance (a sweep). */
  amount?: number;
  remittanceInformation?: string;
  purposeOfPayment?: string;
}

const MAX_STEP_ATTEMPTS = 20;

/**
 * Same-currency transfers and sandbox funding. A transfer-out is recorded first
 * (`TransferOutRequested`), then its funds are held on the source account, then it is settled
 * later by a task (complete: the hold leaves; fail: the hold is released, a refund). Every step
 * re-reads the transaction and is a no-op when already taken, so the request, the
 * `transfer-process` reactor and the settlement task can all drive it, and a crash between two
 * appends is completed by the reactor.
 */
@Injectable()
export class TransfersService {
  constructor(
    private readonly events: EventStoreService,
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly externalAccounts: ExternalAccountsQuery,
    private readonly customers: CustomersQuery,
    private readonly platformConfig: PlatformConfigQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async transferOut(platformId: string, request: TransferRequest): Promise<WireTransaction> {
    const parties = await this.resolveParties(platformId, request, 'OUT');
    const transactionId = parties.transactionId;
    await this.commands.handle(TRANSFER_STREAM, streamNameFor(transactionId), { type: 'RequestTransferOut', parties, now: new Date().toISOString() });
    const outcome = await this.advanceTransferOut(transactionId);
    if (outcome.state.status === 'REJECTED') {
      throw insufficientFunds({
        accountId: parties.sourceAccountId,
        requested: parties.amount,
        ...(outcome.available !== undefined ? { available: outcome.available } : {}),
      });
    }
    return this.wireView(platformId, transactionId, outcome.revision);
  }

  async transferIn(platformId: string, request: TransferRequest): Promise<WireTransaction> {
    const parties = await this.resolveParties(platformId, request, 'IN');
    const requested = await this.commands.handle(TRANSFER_STREAM, streamNameFor(parties.transactionId), {
      type: 'RequestTransferIn',
      parties,
      now: new Date().toISOString(),
    });
    return this.wireView(platformId, parties.transactionId, requested.revision);
  }

  /**
   * Checks a transfer request in either direction (OUT: internal -> external, IN: external ->
   * internal) and names its parties: both accounts this platform's, the same currency, a rail the
   * external account supports, the same customer, an approved customer, an amount in range.
   */
  private async resolveParties(platformId: string, request: TransferRequest, direction: 'IN' | 'OUT'): Promise<TransferParties> {
    // The source is looked up (and reported missing) first, whichever kind it is.
    let internal: InternalAccountDetails;
    let external: ExternalAccountDetails;
    if (direction === 'OUT') {
      internal = await this.requireInternal(platformId, request.sourceAccountId, 'Source');
      external = await this.requireExternal(platformId, request.destinationAccountId, 'Destination');
    } else {
      external = await this.requireExternal(platformId, request.sourceAccountId, 'Source');
      internal = await this.requireInternal(platformId, request.destinationAccountId, 'Destination');
    }
    assertSameCurrency(internal.currency, external.currency);
    const paymentRail = pickRail(request.paymentRail, external.supportedRails, 'destination.paymentRail');
    if (internal.customerId && internal.customerId !== external.customerId) {
      const field = direction === 'OUT' ? 'destination.accountId' : 'source.accountId';
      throw new ValidationError([{ field, constraint: {}, message: 'The external account belongs to another customer' }]);
    }
    const customer = internal.customerId ? await this.approvedCustomer(platformId, internal.customerId) : null;
    const amount = request.amount ?? (await this.sweepAmount(platformId, internal, direction));
    await this.assertAmountInRange(platformId, internal.currency, amount);
    return {
      transactionId: newId('Transaction'),
      platformId,
      customerId: internal.customerId,
      platformCustomerId: customer?.platformCustomerId ?? null,
      sourceAccountId: direction === 'OUT' ? internal.accountId : external.id,
      destinationAccountId: direction === 'OUT' ? external.id : internal.accountId,
      paymentRail,
      currency: internal.currency,
      amount,
      counterpartySuffix: lastThree(external.primaryIdentifier),
      railSelectionMode: request.paymentRail === null ? 'AUTO' : 'MANUAL',
      ...(request.remittanceInformation !== undefined ? { remittanceInformation: request.remittanceInformation } : {}),
      ...(request.purposeOfPayment !== undefined ? { purposeOfPayment: request.purposeOfPayment } : {}),
    };
  }

  /**
   * The customer behind a transfer, who must be approved to transact. The transfer operations
   * declare no 403 or 410: a customer not (yet) approved is a request that cannot be carried out
   * as it stands (400 INVALID_INPUT, the status in `details`), a deleted one is gone (404).
   */
  private async approvedCustomer(platformId: string, customerId: string) {
    try {
      return await this.customers.findApprovedToTransact(platformId, customerId);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === 'FORBIDDEN') throw new DomainError('INVALID_INPUT', error.message, error.details);
      if (error.code === 'CUSTOMER_DELETED') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
      throw error;
    }
  }

  /**
   * A transfer without `amount` (the reference makes it optional). A transfer-out then sweeps
   * what the source holds available now, exact from the ledger; nothing to sweep is 400. A
   * transfer-in pulls from an account whose balance we cannot see, so it needs the amount.
   */
  private async sweepAmount(platformId: string, internal: InternalAccountDetails, direction: 'IN' | 'OUT'): Promise<number> {
    if (direction === 'IN') {
      throw new ValidationError([{ field: 'amount', constraint: {}, message: 'amount is required to pull from an external account' }]);
    }
    const { available } = await this.ledger.snapshot({ platformId, accountId: internal.accountId });
    if (available <= 0) throw insufficientFunds({ accountId: internal.accountId, requested: 0, available });
    return available;
  }

  private async requireInternal(platformId: string, accountId: string, side: 'Source' | 'Destination'): Promise<InternalAccountDetails> {
    const found = await this.internalAccounts.findDetails(platformId, accountId);
    if (!found) throw new DomainError('REFERENCE_NOT_FOUND', `${side} internal account not found`);
    return found;
  }

  private async requireExternal(platformId: string, accountId: string, side: 'Source' | 'Destination'): Promise<ExternalAccountDetails> {
    const found = await this.externalAccounts.findById(platformId, accountId);
    if (!found) throw new DomainError('REFERENCE_NOT_FOUND', `${side} external account not found`);
    return found;
  }

  /** `POST /sandbox/internal-accounts/{id}/fund`: credit, then record the incoming transaction. */
  async fund(platformId: string, accountId: string, amount: number): Promise<InternalAccountView> {
    const account = await this.internalAccounts.findDetails(platformId, accountId);
    if (!account) throw new DomainError('REFERENCE_NOT_FOUND', 'Internal account not found');
    const transactionId = newId('Transaction');
    const credited = await this.ledger.credit({
      platformId,
      accountId,
      movementId: transactionId,
      amount,
      reason: 'SANDBOX_FUNDING',
      reference: transactionId,
    });
    await this.recordFunding({
      platformId,
      transactionId,
      accountId,
      customerId: credited.customerId,
      currency: credited.currency,
      amount,
      completedAt: credited.updatedAt,
    });
    // The ledger does not know a wallet's privacy setting; the read model row does.
    return internalAccountView({ ...credited, privateEnabled: account.privateEnabled });
  }

  /** The customer owning an internal account (null for platform-owned), from its ledger stream. */
  async accountOwner(platformId: string, accountId: string): Promise<string | null> {
    return (await this.ledger.snapshot({ platformId, accountId })).customerId;
  }

  /** The incoming transaction of a sandbox funding credit (request, or reactor after a crash). */
  async recordFunding(input: {
    platformId: string;
    transactionId: string;
    accountId: string;
    customerId: string | null;
    currency: string;
    amount: number;
    completedAt: string;
  }): Promise<void> {
    const customer = input.customerId ? await this.customers.findById(input.platformId, input.customerId) : null;
    const stream = streamNameFor(input.transactionId);
    const result = await this.commands.handle(TRANSFER_STREAM, stream, {
      type: 'RecordSandboxFunding',
      transactionId: input.transactionId,
      platformId: input.platformId,
      customerId: input.customerId,
      platformCustomerId: customer?.platformCustomerId ?? null,
      accountId: input.accountId,
      currency: input.currency,
      amount: input.amount,
      now: input.completedAt,
    });
    // Recorded already by the reactor that raced this request: wait for that event instead.
    if (result.events.length === 0) await this.load(stream);
  }

  /**
   * Drives a transfer-out from REQUESTED: hold the funds, then record the hold or the refusal.
   * A refusal that raced with a successful hold (a retry elsewhere) gives the hold back.
   */
  async advanceTransferOut(transactionId: string): Promise<{ state: TransactionState; revision: number | 'no_stream'; available?: number }> {
    const stream = streamNameFor(transactionId);
    let available: number | undefined;
    for (let attempt = 1; attempt <= MAX_STEP_ATTEMPTS; attempt++) {
      // Stop folding where the transfer left REQUESTED: what the request reports (and, on a
      // refusal, acts on) is that moment, not a settlement that may already have followed.
      const { state, revision } = await this.load(stream, (current) => current.status !== 'none' && current.status !== 'REQUESTED');
      if (state.status === 'none' || state.kind !== 'TRANSFER_OUT') return { state, revision };
      if (state.status === 'REJECTED') {
        const released = await this.ledger.releaseHold({
          platformId: state.platformId,
          accountId: state.sourceAccountId,
          holdId: transactionId,
          reason: 'TRANSFER_REJECTED',
        });
        // The refusal may have been decided by the reactor: report the balance as it is now.
        return { state, revision, available: available ?? released.available };
      }
      if (state.status !== 'REQUESTED') return { state, revision };
      let command: TransactionCommand;
      try {
        await this.ledger.hold({
          platformId: state.platformId,
          accountId: state.sourceAccountId,
          holdId: transactionId,
          amount: state.amount,
          reference: transactionId,
        });
        command = { type: 'RecordFundsHeld', holdId: transactionId, now: new Date().toISOString() };
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== INSUFFICIENT_FUNDS) throw error;
        available = (error.details as { available?: number } | undefined)?.available;
        command = { type: 'RejectTransferOut', reason: 'INSUFFICIENT_FUNDS', now: new Date().toISOString() };
      }
      await this.appendStep(stream, command, state, revision);
    }
    throw new DomainError('CONFLICT', 'The transfer was changed concurrently; retry');
  }

  /** Settles a PENDING transfer by the sandbox scenario of its counterparty (the settlement task). */
  async settle(transactionId: string): Promise<void> {
    const stream = streamNameFor(transactionId);
    for (let attempt = 1; attempt <= MAX_STEP_ATTEMPTS; attempt++) {
      const { state, revision } = await this.load(stream);
      if (state.status !== 'PENDING') return;
      const scenario = transferScenario(state.counterpartySuffix);
      const now = new Date().toISOString();
      let command: TransactionCommand;
      if (state.kind === 'TRANSFER_OUT') {
        const hold = { platformId: state.platformId, accountId: state.sourceAccountId, holdId: state.holdId ?? transactionId };
        if (scenario.outcome === 'COMPLETED') {
          await this.ledger.settleHold(hold);
          command = { type: 'CompleteTransfer', now };
        } else {
          const failureReason = scenario.failureReason ?? 'BANK_REJECTED';
          await this.ledger.releaseHold({ ...hold, reason: failureReason });
          command = {
            type: 'FailTransfer',
            failureReason,
            refund: { reference: `${transactionId}:refund`, initiatedAt: now, settledAt: now, status: 'COMPLETED', reason: failureReason },
            now,
          };
        }
      } else if (scenario.outcome === 'COMPLETED') {
        try {
          await this.ledger.credit({
            platformId: state.platformId,
            accountId: state.destinationAccountId,
            movementId: transactionId,
            amount: state.amount,
            reason: 'TRANSFER_IN',
            reference: transactionId,
          });
          command = { type: 'CompleteTransfer', now };
        } catch (error) {
          if (!(error instanceof DomainError) || error.code !== 'AMOUNT_OUT_OF_RANGE') throw error;
          command = { type: 'FailTransfer', failureReason: 'AMOUNT_OUT_OF_RANGE', refund: null, now };
        }
      } else {
        command = { type: 'FailTransfer', failureReason: scenario.failureReason ?? 'BANK_REJECTED', refund: null, now };
      }
      await this.appendStep(stream, command, state, revision);
    }
    throw new DomainError('CONFLICT', 'The transfer was changed concurrently; the settlement will be retried');
  }

  /**
   * Reads and folds a transaction stream, noting the newest position in the request context so
   * the response waits for steps another process (the reactor) took first. Folds the stream, or only up to the first state for which `stopAt` holds (the revision is
   * then that event's), e.g. the moment a transfer-out left REQUESTED, whatever came after.
   */
  private async load(
    stream: string,
    stopAt?: (state: TransactionState) => boolean,
  ): Promise<{ state: TransactionState; revision: number | 'no_stream' }> {
    const recorded = await this.events.readStream(stream);
    let state = transactionDecider.initialState();
    let revision: number | 'no_stream' = 'no_stream';
    for (const event of recorded) {
      state = transactionDecider.evolve(state, event as unknown as Parameters<typeof transactionDecider.evolve>[1]);
      revision = event.revision;
      if (stopAt?.(state)) break;
    }
    const last = recorded[recorded.length - 1];
    if (last) recordAppendedPosition(last.position);
    return { state, revision };
  }

  /**
   * The transaction as GET returns it, folded from its stream (independent of read-model lag), as of `upToRevision` (the last revision the caller observed), or as it is now.
   * A settlement that already ran, e.g. a sandbox failure "at once", shows in the next GET and in
   * webhooks, never in the 201 that created the transfer.
   */
  async view(transactionId: string, upToRevision?: number | 'no_stream'): Promise<TransactionView> {
    const all = await this.events.readStream(streamNameFor(transactionId));
    const recorded = typeof upToRevision === 'number' ? all.filter((event) => event.revision <= upToRevision) : all;
    if (recorded.length > 0) recordAppendedPosition(recorded[recorded.length - 1].position);
    const row = foldTransactionRow(TRANSFER_TRANSACTION_REDUCERS, recorded);
    if (!row) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    return row.view;
  }

  /** `view` as the API shows it. */
  private async wireView(platformId: string, transactionId: string, upToRevision: number | 'no_stream'): Promise<WireTransaction> {
    return transactionOnWire(await this.view(transactionId, upToRevision), platformId);
  }

  /**
   * Appends the events of `command` at `revision`. Whether it wins or another writer moved the
   * stream first, the caller's loop re-reads and takes the next step from what was recorded.
   */
  private async appendStep(stream: string, command: TransactionCommand, state: TransactionState, revision: number | 'no_stream'): Promise<void> {
    const decided = transactionDecider.decide(command, state);
    if (decided.length === 0) return;
    try {
      await this.events.append(stream, decided, revision);
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }

  private async assertAmountInRange(platformId: string, currency: string, amount: number): Promise<void> {
    const config = await this.platformConfig.findRaw(platformId);
    const limits = config?.supportedCurrencies.find((entry) => entry.currencyCode === currency);
    if (limits && (amount < limits.minAmount || amount > limits.maxAmount)) {
      throw new DomainError('AMOUNT_OUT_OF_RANGE', `amount must be from ${limits.minAmount} to ${limits.maxAmount} for ${currency}`, {
        minAmount: limits.minAmount,
        maxAmount: limits.maxAmount,
      });
    }
  }
}
