import { SandboxTiming } from '../infra/config';
import { QUOTE_SCENARIO_BY_SUFFIX, quoteScenarioFor, sandboxSuffix, settlementSchedule } from './quote-scenarios';

const timing: SandboxTiming = { settlementDelayMs: 100, longPaymentDelayMs: 2000, slowFailureDelayMs: 1000, returnDelayMs: 300, refundDelayMs: 200 };
const refund = (reason: string, funds = 'RELEASE_HOLD', status = 'COMPLETED') => ({ status, reason, funds, delayMs: 200 });

describe('sandbox quote scenarios', () => {
  it('reads the suffix from the end of the identifier, or of the user part of a domain identifier', () => {
    expect(sandboxSuffix('123456789002')).toBe('002');
    expect(sandboxSuffix('DE89370400440532013005')).toBe('005');
    expect(sandboxSuffix('alice.002@example.com')).toBe('002');
    expect(sandboxSuffix('$bob.007@sandbox.uma.money')).toBe('007');
    expect(sandboxSuffix('sparkrt1pgss8ter0fhc4c')).toBeNull();
    expect(sandboxSuffix('12')).toBeNull();
  });

  it('maps every DECISIONS.md suffix to its outcome and everything else to success', () => {
    expect(QUOTE_SCENARIO_BY_SUFFIX).toEqual({
      '002': 'EXECUTION_FAILED', '003': 'LONG_PAYMENT', '004': 'ACCOUNT_CANNOT_RECEIVE', '005': 'PAYOUT_RETURNED', '006': 'USER_CANCELLATION', '007': 'REFUND_FAILED',
    });
    for (const identifier of ['000123456789', '1234567001', '1234567008', '123456102', '123456105', '123456199', 'no-digits', 'carol@example.com']) {
      expect([identifier, quoteScenarioFor(identifier).name]).toEqual([identifier, 'SUCCESS']);
    }
  });

  it('spells out each scenario step by step with the configured delays; a failure starts a refund that ends refundDelayMs later', () => {
    expect(settlementSchedule(quoteScenarioFor('1234567000'), timing)).toEqual([
      { after: 'settlementDelayMs', delayMs: 100, atMs: 100, status: 'COMPLETED', failureReason: null, funds: 'SETTLE_HOLD', refund: null },
    ]);
    expect(settlementSchedule(quoteScenarioFor('1234567002'), timing)).toEqual([
      { after: 'settlementDelayMs', delayMs: 100, atMs: 100, status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', funds: 'NONE', refund: refund('TRANSACTION_FAILED') },
    ]);
    expect(settlementSchedule(quoteScenarioFor('alice.003@example.com'), timing)).toEqual([
      { after: 'longPaymentDelayMs', delayMs: 2000, atMs: 2000, status: 'COMPLETED', failureReason: null, funds: 'SETTLE_HOLD', refund: null },
    ]);
    expect(settlementSchedule(quoteScenarioFor('1234567004'), timing)[0]).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE', funds: 'NONE', refund: refund('TRANSACTION_FAILED') });
    expect(settlementSchedule(quoteScenarioFor('1234567005'), timing)).toEqual([
      { after: 'settlementDelayMs', delayMs: 100, atMs: 100, status: 'COMPLETED', failureReason: null, funds: 'SETTLE_HOLD', refund: null },
      { after: 'returnDelayMs', delayMs: 300, atMs: 400, status: 'FAILED', failureReason: 'PAYOUT_RETURNED', funds: 'NONE', refund: refund('TRANSACTION_FAILED', 'CREDIT_REFUND') },
    ]);
    expect(settlementSchedule(quoteScenarioFor('1234567006'), timing)[0]).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', refund: refund('USER_CANCELLATION') });
    expect(settlementSchedule(quoteScenarioFor('1234567007'), timing)).toEqual([
      { after: 'settlementDelayMs', delayMs: 100, atMs: 100, status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', funds: 'NONE', refund: refund('TRANSACTION_FAILED', 'SETTLE_HOLD_UNREFUNDED', 'FAILED') },
    ]);
    expect(quoteScenarioFor('1234567007')).toMatchObject({ name: 'REFUND_FAILED', suffix: '007' });
  });
});
