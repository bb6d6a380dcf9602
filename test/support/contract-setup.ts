import { takeContractProblems } from './contract-check';

// Fails the test during which an answer or a webhook broke a contract (test/support/contract-check.ts).
afterEach(() => {
  const found = takeContractProblems();
  if (found.length > 0) throw new Error(`answers that break the contract:\n${[...new Set(found)].join('\n')}`);
});
