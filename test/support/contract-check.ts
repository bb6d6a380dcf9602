import { appendFileSync } from 'node:fs';
import type { Response } from 'supertest';
import { ContractDocument, referenceContract } from './openapi-contract';

/**
 * Every e2e answer and webhook is checked against the contracts: the production contract
 * (when `../shared/reference/openapi.yaml` is present) and the service's own document once a
 * suite has read it. Problems are collected here and fail the test that caused them
 * (test/support/contract-setup.ts); with CONTRACT_REPORT=<file> they are appended to the file
 * instead, to survey drift without stopping the suite.
 */
const problems: string[] = [];
const extraContracts: ContractDocument[] = [];

let webhookChecksWanted = false;

export function addContract(contract: ContractDocument): void {
  if (extraContracts.some((known) => known.name === contract.name)) return;
  extraContracts.push(contract);
  if (webhookChecksWanted) contract.checkWebhook({ type: '' });
}

/**
 * Compiles every webhook schema now (a test file that receives webhooks calls it as its receiver
 * starts). Compiled on the first webhook instead, they cost seconds on a loaded box inside the
 * receiver's answer, in the process that also runs the service, whose webhook timeout (1 s in
 * some suites) then fires first.
 */
export function warmUpWebhookChecks(): void {
  webhookChecksWanted = true;
  // No webhook has type '': every document webhook's schema is compiled and none matches.
  for (const contract of contracts()) contract.checkWebhook({ type: '' });
}

export function hasContract(name: string): boolean {
  return extraContracts.some((known) => known.name === name);
}

function contracts(): ContractDocument[] {
  const reference = referenceContract();
  return reference ? [reference, ...extraContracts] : extraContracts;
}

/**
 * Answers SPEC.md (or our refusal of bad input, docs/api.md) requires where the reference declares
 * no such status for the operation: SPEC.md wins over the reference
 * (../shared/reference/README.md), so these are not contract breaks.
 */
/**
 * Answers SPEC.md (or an issue) gives where the reference declares none: each names the operation
 * ('*': any), the status, and the error `code` or, for a success, what the body must be.
 */
const SPEC_OVER_REFERENCE: Array<{ operation: string; status: number; code?: string; body?: (body: any) => boolean; why: string }> = [
  { operation: 'POST /quotes', status: 409, code: 'SCA_SESSION_REQUIRED', why: 'SPEC.md Authentication 7: no live SCA login is 409 (immediatelyExecute runs the execute)' },
  { operation: 'GET /stablecoins/{stablecoinId}/operations', status: 400, code: 'INVALID_INPUT', why: 'issue 28: a bad operationType, limit or cursor is refused listing every bad field, as on every list (docs/stablecoins.md); the reference declares no 400 for this list' },
  { operation: '*', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', why: 'issue 21: a body the service cannot read (media type, charset, encoding); the reference declares no answer for it' },
  { operation: '*', status: 403, code: 'FORBIDDEN', why: "issue 24: an API token without the operation's permission (the reference's Permission; its Error403 FORBIDDEN is 'Insufficient permissions')" },
  {
    operation: 'GET /uma-providers',
    status: 400,
    code: 'INVALID_INPUT',
    why: 'a bad filter or cursor is refused listing every bad field (docs/api.md, as on every list); the reference declares no error answers for this list',
  },
  {
    operation: 'GET /agents/me/internal-accounts',
    status: 400,
    code: 'INVALID_INPUT',
    why: 'issue 26: a bad filter or cursor is refused listing every bad field, as on every list (docs/agents.md); the reference declares no 400 for this list',
  },
  {
    operation: 'GET /agents/me/actions',
    status: 400,
    code: 'INVALID_INPUT',
    why: 'issue 26: a bad status filter or cursor is refused listing every bad field, as on every list (docs/api.md); the reference declares no 400 for this list',
  },
  {
    operation: 'POST /customers/bulk/csv',
    status: 400,
    code: 'INVALID_INPUT',
    why: 'issue 25: a file that cannot become a job (no CSV part, unreadable, a bad header, over 10 MB or 10,000 rows) is refused at once (docs/customers.md); the reference declares only 202',
  },
  ...['approve', 'reject'].map((decision) => ({
    operation: `POST /transactions/{transactionId}/${decision}`,
    status: 200,
    body: (body: any) => body?.type === 'OUTGOING' && typeof body?.quoteId === 'string',
    why: "SPEC.md Endpoints: the platform's approval of an agent-initiated transaction (docs/agents.md); the reference's 200 names only the IncomingTransaction of an incoming payment",
  })),
];

export function checkAnswer(method: string, path: string, response: Pick<Response, 'status' | 'body' | 'text'>): void {
  const body = response.text === '' ? undefined : response.body;
  for (const contract of contracts()) {
    if (contract.name === 'reference' && specOverReference(contract, method, path, response.status, body)) continue;
    record(contract.checkResponse(method, path, response.status, body).map((line) => `[${contract.name}] ${line}`));
  }
}

function specOverReference(contract: ContractDocument, method: string, path: string, status: number, body: unknown): boolean {
  const operation = contract.operationFor(method, path);
  const code = (body as { code?: unknown } | undefined)?.code;
  return SPEC_OVER_REFERENCE.some(
    (allowed) =>
      (allowed.operation === '*' || allowed.operation === operation) &&
      allowed.status === status &&
      (allowed.body ? allowed.body(body) : allowed.code === code),
  );
}

export function checkWebhook(body: unknown): void {
  for (const contract of contracts()) record(contract.checkWebhook(body).map((line) => `[${contract.name}] ${line}`));
}

function record(found: string[]): void {
  if (found.length === 0) return;
  if (process.env.CONTRACT_REPORT) {
    appendFileSync(process.env.CONTRACT_REPORT, `${found.map((line) => `${expect.getState().currentTestName ?? ''}\t${line}`).join('\n')}\n`);
    return;
  }
  problems.push(...found);
}

/** The problems recorded since the last call (the setup file fails the test with them). */
export function takeContractProblems(): string[] {
  return problems.splice(0, problems.length);
}
