import {
  providerLinkScenario,
  sandboxDepositAddress,
  sandboxProviderAccountId,
  sandboxStablecoinToken,
  sandboxWireInstructions,
  stablecoinOperationScenario,
} from './stablecoin-scenarios';

describe('sandbox stablecoin provider (docs/sandbox.md "Stablecoins")', () => {
  it('verifies provider credentials by the suffix of apiClientId', () => {
    expect(providerLinkScenario('client-001', 'sandbox')).toBe('REFUSE');
    expect(providerLinkScenario('client-002', 'sandbox')).toBe('REVOKE_LATER');
    expect(providerLinkScenario('client-003', 'sandbox')).toBe('INVALIDATE_LATER');
    expect(providerLinkScenario('client-004', 'sandbox')).toBe('KEEP');
    expect(providerLinkScenario('ab', 'sandbox')).toBe('KEEP');
    expect(providerLinkScenario('client-001', 'production')).toBe('KEEP');
  });

  it('derives a stable provider account id per client id', () => {
    const id = sandboxProviderAccountId('client-123');
    expect(id).toMatch(/^[0-9A-Za-z]{27}$/);
    expect(sandboxProviderAccountId('client-123')).toBe(id);
    expect(sandboxProviderAccountId('client-124')).not.toBe(id);
  });

  it('knows every token but those ending 001: USD-backed, 6 decimals, the identifier as symbol', () => {
    expect(sandboxStablecoinToken('acme')).toEqual({ name: 'ACME Stablecoin', symbol: 'ACME', decimals: 6, baseCurrency: 'USD' });
    expect(sandboxStablecoinToken('acme-001')).toBeNull();
  });

  it('decides an operation by the suffix of its description; outside the sandbox it completes', () => {
    expect(stablecoinOperationScenario('mint 001', 'sandbox')).toBe('NO_ANSWER');
    expect(stablecoinOperationScenario('mint 002', 'sandbox')).toBe('FAIL');
    expect(stablecoinOperationScenario('mint 003', 'sandbox')).toBe('EXPIRE');
    expect(stablecoinOperationScenario('mint 004', 'sandbox')).toBe('COMPLETE');
    expect(stablecoinOperationScenario(null, 'sandbox')).toBe('COMPLETE');
    expect(stablecoinOperationScenario('mint 002', 'production')).toBe('COMPLETE');
  });

  it('gives stable funding instructions per operation', () => {
    const operationId = 'StablecoinOperation:0199a000-0000-7000-8000-000000000301';
    expect(sandboxDepositAddress(operationId)).toMatch(/^sparkrt1[02-9ac-hj-np-z]{32}$/);
    expect(sandboxDepositAddress(operationId)).toBe(sandboxDepositAddress(operationId));
    expect(sandboxWireInstructions(operationId)).toEqual(expect.objectContaining({ rail: 'WIRE', reference: expect.stringMatching(/^MINT-[0-9A-F]{12}$/) }));
  });
});
