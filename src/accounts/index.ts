/**
 * The accounts context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { AccountsModule } from './accounts.module';
export { EXTERNAL_ACCOUNT_TYPES, checkIdentifiers, currenciesFor, railsFor } from './domain/external-account/account-identifiers';
export type { ExternalAccountType } from './domain/external-account/account-identifiers';
export { externalAccountDecider } from './domain/external-account/external-account.decider';
export { EXTERNAL_ACCOUNT_EVENT_TYPES } from './domain/external-account/external-account.events';
export { verificationRequiredRefusal } from './domain/external-account/ownership-rules';
export { externalAccountNotFound } from './domain/external-account/external-account.errors';
export type { ExternalAccountEvent, ExternalAccountStatus } from './domain/external-account/external-account.events';
export { INTERNAL_ACCOUNT_EVENT_TYPES } from './domain/internal-account/internal-account.events';
export type { InternalAccountEvent } from './domain/internal-account/internal-account.events';
export { ApproveIncomingPayment, RejectIncomingPayment } from './commands/incoming-payment-ports';
export { ApproveAgentTransaction, RejectAgentTransaction } from './commands/agent-transaction-ports';
// The agents context: an agent's transfers run the same commands as POST /transfer-in|out.
export { TransferIn } from './commands/transfer-in';
export { TransferOut } from './commands/transfer-out';
export type { TransferRequest } from './commands/transfer-out';
export { TransferInDto, TransferOutDto } from './http/accounts.dto';
export { validTransfer } from './http/transfers.controller';
export { CancelQuotePayment, ConfirmQuotePaymentReceipt } from './commands/quote-payment-ports';
export { isCancellableRail } from './domain/transaction/cancellable-rails';
export { USER_CANCELLATION, completedRefund, pendingRefund } from './domain/transaction/refund';
export type { Refund, RefundStatus } from './domain/transaction/refund';
export type { TransferParties } from './domain/transaction/transaction.events';
export { AccountsLedger } from './ledger/accounts-ledger';
export type {
  AdjustHoldInput,
  AtomicMovement,
  AtomicStepOutcome,
  CaptureInput,
  CompanionAppend,
  DebitInput,
  LedgerAccountSnapshot,
  LedgerMovement,
  LedgerStepResult,
} from './ledger/accounts-ledger';
export { INSUFFICIENT_FUNDS, insufficientFunds, isInsufficientFunds } from './ledger/insufficient-funds';
export { customerAccountId } from './provisioning/internal-account-provisioner';
export type { ExternalAccountDetails } from './queries/external-account.view';
export { externalAccountView } from './queries/external-account.view';
export { ExternalAccountsQuery } from './queries/external-accounts.query';
export type { ExternalAccountView } from './queries/external-account.view';
export { CreateExternalAccount } from './commands/create-external-account';
export { DeleteExternalAccount } from './commands/delete-external-account';
export { parseExternalAccountBody } from './http/external-account-body';
export { internalAccountViewFromEvents, movementTime } from './queries/internal-account.view';
export { InternalAccountsQuery } from './queries/internal-accounts.query';
export type { InternalAccountDetails } from './queries/internal-accounts.query';
export type { InternalAccountView } from './queries/internal-account.view';
export { INTERNAL_ACCOUNT_TYPES } from './http/internal-accounts.controller';
export { TRANSACTION_STATUS_FILTERS, TRANSACTION_TYPE_FILTERS, TransactionsQuery } from './queries/transactions.query';
export type { TransactionFilters } from './queries/transactions.query';
export { refundWebhooks } from './account-webhooks';
export type { MappedWebhook } from './account-webhooks';
export { transactionOnWire } from './queries/transaction-wire';
export type { TransactionOneOf, WireTransaction } from './queries/transaction-wire';
export type { CardTransaction, CardTransactionStatus } from './queries/card-transaction-wire';
export { foldTransactionRow } from './queries/transaction.view';
export type { TransactionRow, TransactionView, TransactionViewReducer } from './queries/transaction.view';
export { TRANSFER_TRANSACTION_REDUCERS } from './queries/transfer-transaction.reducers';
