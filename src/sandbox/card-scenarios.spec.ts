import { cardIssuanceScenario, sandboxCardDetails } from './card-scenarios';

describe('sandbox card issuance scenarios (DECISIONS.md section 5)', () => {
  it('picks the issuer answer from the last three characters of platformCardId', () => {
    expect(cardIssuanceScenario('emp-001', 'sandbox')).toBe('NO_ANSWER');
    expect(cardIssuanceScenario('emp-002', 'sandbox')).toBe('REJECT');
    expect(cardIssuanceScenario('emp-003', 'sandbox')).toBe('ISSUE');
    expect(cardIssuanceScenario('0010', 'sandbox')).toBe('ISSUE');
    expect(cardIssuanceScenario('ab', 'sandbox')).toBe('ISSUE');
    expect(cardIssuanceScenario(null, 'sandbox')).toBe('ISSUE');
  });

  it('issues every card outside the sandbox', () => {
    expect(cardIssuanceScenario('emp-001', 'production')).toBe('ISSUE');
    expect(cardIssuanceScenario('emp-002', 'production')).toBe('ISSUE');
  });

  it('derives stable card details: four digits, expiry three years after issuance', () => {
    const details = sandboxCardDetails('Card:0199a000-0000-7000-8000-0000000000c1', '2025-10-13T12:00:00.000Z');
    expect(details).toEqual({ last4: expect.stringMatching(/^\d{4}$/), expMonth: 10, expYear: 2028 });
    expect(sandboxCardDetails('Card:0199a000-0000-7000-8000-0000000000c1', '2026-01-31T23:59:59.000Z').last4).toBe(details.last4);
  });
});
