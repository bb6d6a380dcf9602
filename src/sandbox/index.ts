/**
 * The sandbox context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { beneficiaryCheck, pendingCheckOutcome } from './beneficiary-checks';
export { cardAuthorizationScenario } from './card-authorization-scenarios';
export type { CardAuthorizationScenario } from './card-authorization-scenarios';
export { cardIssuanceScenario, sandboxCardDetails } from './card-scenarios';
export { cardExpiry, groupedPan, passesLuhn, sandboxCardSecrets } from './card-pan';
export type { SandboxCardSecrets } from './card-pan';
export { beneficialOwnerKycStatus, businessVerificationScenario, individualVerificationScenario, initialIndividualKycStatus } from './kyc-scenarios';
export { LEGACY_FAILURE_REASONS, quoteScenarioByName, quoteScenarioFor, refundReasonOf, settlementSchedule } from './quote-scenarios';
export type { QuoteScenario, QuoteScenarioName, TimedSettlementStep } from './quote-scenarios';
export { lastThree } from './suffix';
export {
  providerLinkScenario,
  sandboxDepositAddress,
  sandboxProviderAccountId,
  sandboxStablecoinToken,
  sandboxWireInstructions,
  stablecoinOperationScenario,
} from './stablecoin-scenarios';
export { transferDelayMs, transferScenario } from './transfer-scenarios';
export { parseUmaAddress, resolveSandboxUmaReceiver } from './uma-addresses';
export { initialPayerData, payerDataFor, requestedReceiverFields, resolveSandboxUmaSender } from './uma-senders';
export type { SandboxUmaSender } from './uma-senders';
