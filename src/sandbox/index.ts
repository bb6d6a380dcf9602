/**
 * The sandbox context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { beneficiaryCheck, pendingCheckOutcome } from './beneficiary-checks';
export { cardIssuanceScenario, sandboxCardDetails } from './card-scenarios';
export { beneficialOwnerKycStatus, businessVerificationScenario, individualVerificationScenario, initialIndividualKycStatus } from './kyc-scenarios';
export { LEGACY_FAILURE_REASONS, quoteScenarioByName, quoteScenarioFor, refundReasonOf, settlementSchedule } from './quote-scenarios';
export type { QuoteScenario, QuoteScenarioName, TimedSettlementStep } from './quote-scenarios';
export { lastThree } from './suffix';
export { transferDelayMs, transferScenario } from './transfer-scenarios';
export { parseUmaAddress, resolveSandboxUmaReceiver } from './uma-addresses';
export { initialPayerData, payerDataFor, requestedReceiverFields, resolveSandboxUmaSender } from './uma-senders';
export type { SandboxUmaSender } from './uma-senders';
