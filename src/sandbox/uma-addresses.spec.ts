import { DomainError } from '../infra/domain/domain-error';
import { parseUmaAddress, resolveSandboxUmaReceiver } from './uma-addresses';

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('UMA addresses', () => {
  it('parses $user@domain case-insensitively and refuses malformed text', () => {
    expect(parseUmaAddress('$Alice@Example.com')).toEqual({ address: '$alice@example.com', user: 'alice', domain: 'example.com' });
    expect(parseUmaAddress('$a.b_c+d-e@pay.example.co.uk')?.user).toBe('a.b_c+d-e');
    for (const text of ['alice@example.com', '$@example.com', '$alice', '$alice@', '$ali ce@example.com', '$alice@@example.com', '$alice@example', '$alice@-bad.com', `$${'a'.repeat(65)}@example.com`, 42, null]) {
      expect([text, parseUmaAddress(text)]).toEqual([text, null]);
    }
  });

  it('resolves the sandbox test receivers with their currency and scenario', () => {
    expect(resolveSandboxUmaReceiver('$success.usd@sandbox.uma.money')).toMatchObject({ kind: 'SUCCESS', currency: 'USD', scenario: { name: 'SUCCESS' } });
    expect(resolveSandboxUmaReceiver('$pending.long.mxn@sandbox.uma.money')).toMatchObject({ kind: 'PENDING_LONG', currency: 'MXN', scenario: { name: 'UMA_PENDING_LONG' } });
    expect(resolveSandboxUmaReceiver('$fail.compliance.EUR@Sandbox.UMA.money')).toMatchObject({
      kind: 'FAIL_COMPLIANCE', currency: 'EUR', scenario: { name: 'UMA_COMPLIANCE_REJECTED', steps: [{ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' }] },
    });
    expect(resolveSandboxUmaReceiver('$success.btc@sandbox.uma.money', 'BTC').currency).toBe('BTC');
  });

  it('answers INVALID_UMA_ADDRESS, UMA_NOT_FOUND and INVALID_CURRENCY', () => {
    expect(codeOf(() => resolveSandboxUmaReceiver('not-an-address'))).toBe('INVALID_UMA_ADDRESS');
    expect(codeOf(() => resolveSandboxUmaReceiver('$success.usd@'))).toBe('INVALID_UMA_ADDRESS');
    expect(codeOf(() => resolveSandboxUmaReceiver('$nobody@sandbox.uma.money'))).toBe('UMA_NOT_FOUND');
    expect(codeOf(() => resolveSandboxUmaReceiver('$success.xyz@sandbox.uma.money'))).toBe('UMA_NOT_FOUND');
    expect(codeOf(() => resolveSandboxUmaReceiver('$success.usd@elsewhere.example'))).toBe('UMA_NOT_FOUND');
    expect(codeOf(() => resolveSandboxUmaReceiver('$success.usd@sandbox.uma.money', 'EUR'))).toBe('INVALID_CURRENCY');
  });
});
