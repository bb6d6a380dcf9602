import { SandboxTiming } from '../infra/config';
import { lastThree } from './suffix';

/**
 * Sandbox outcomes of `POST /transfer-in` and `POST /transfer-out`, by the last three digits of
 * the external account's primary identifier (DECISIONS.md section 5): `002` insufficient funds,
 * `003` account closed, `004` bank rejects (all three fail at once), `005` stays pending about
 * 30 s (SANDBOX_SLOW_FAILURE_DELAY_MS) then fails, anything else succeeds after the settlement
 * delay (SANDBOX_SETTLEMENT_DELAY_MS). `1xx` suffixes belong to beneficiary name checks and
 * settle like any other success.
 */
export type TransferFailureReason = 'INSUFFICIENT_FUNDS' | 'ACCOUNT_CLOSED' | 'BANK_REJECTED' | 'SETTLEMENT_TIMEOUT';

export interface TransferScenario {
  outcome: 'COMPLETED' | 'FAILED';
  failureReason: TransferFailureReason | null;
  /** Which sandbox delay applies before the outcome is recorded. */
  timing: 'IMMEDIATE' | 'SETTLEMENT' | 'SLOW_FAILURE';
}

const SCENARIOS: Record<string, TransferScenario> = {
  '002': { outcome: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS', timing: 'IMMEDIATE' },
  '003': { outcome: 'FAILED', failureReason: 'ACCOUNT_CLOSED', timing: 'IMMEDIATE' },
  '004': { outcome: 'FAILED', failureReason: 'BANK_REJECTED', timing: 'IMMEDIATE' },
  '005': { outcome: 'FAILED', failureReason: 'SETTLEMENT_TIMEOUT', timing: 'SLOW_FAILURE' },
};

const SUCCESS: TransferScenario = { outcome: 'COMPLETED', failureReason: null, timing: 'SETTLEMENT' };

/** The scenario for an identifier suffix (the last three characters of the primary identifier). */
export function transferScenario(identifierSuffix: string | null | undefined): TransferScenario {
  return (identifierSuffix && SCENARIOS[identifierSuffix]) || SUCCESS;
}

export function transferScenarioForIdentifier(primaryIdentifier: string): TransferScenario {
  return transferScenario(lastThree(primaryIdentifier));
}

export function transferDelayMs(scenario: TransferScenario, timing: SandboxTiming): number {
  switch (scenario.timing) {
    case 'IMMEDIATE':
      return 0;
    case 'SLOW_FAILURE':
      return timing.slowFailureDelayMs;
    case 'SETTLEMENT':
      return timing.settlementDelayMs;
  }
}
