import { DomainError } from '../infra/domain/domain-error';
import { isCurrencyCode } from '../shared/currencies';
import { QuoteScenario, quoteScenarioByName } from './quote-scenarios';

/**
 * UMA addresses (`$user@domain`) and the sandbox's test receivers (DECISIONS.md section 5):
 *   $success.<cur>@sandbox.uma.money        pays out successfully
 *   $pending.long.<cur>@sandbox.uma.money   stays pending about six minutes, then completes
 *   $fail.compliance.<cur>@sandbox.uma.money fails with COMPLIANCE_REJECTED (refunded)
 * Any other well-formed address has no receiver the sandbox can reach: 404 UMA_NOT_FOUND.
 * A malformed address: 400 INVALID_UMA_ADDRESS.
 */
export const SANDBOX_UMA_DOMAIN = 'sandbox.uma.money';

export interface UmaAddress {
  /** Lowercased canonical form, `$user@domain`. */
  address: string;
  user: string;
  domain: string;
}

export type UmaTestReceiverKind = 'SUCCESS' | 'PENDING_LONG' | 'FAIL_COMPLIANCE';

export interface SandboxUmaReceiver extends UmaAddress {
  kind: UmaTestReceiverKind;
  /** The receiver's currency, from the address (`usd` -> `USD`). */
  currency: string;
  scenario: QuoteScenario;
}

/** UMA user names: letters, digits and `. _ + -`, at most 64 characters (case-insensitive). */
const USER_PATTERN = /^[a-z0-9._+-]{1,64}$/;
const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const MAX_ADDRESS_LENGTH = 320;

/** Parses `$user@domain`; null when malformed. */
export function parseUmaAddress(text: unknown): UmaAddress | null {
  if (typeof text !== 'string' || text.length > MAX_ADDRESS_LENGTH || !text.startsWith('$')) return null;
  const lower = text.toLowerCase();
  const at = lower.indexOf('@');
  if (at < 0 || lower.indexOf('@', at + 1) >= 0) return null;
  const user = lower.slice(1, at);
  const domain = lower.slice(at + 1);
  if (!USER_PATTERN.test(user) || !DOMAIN_PATTERN.test(domain)) return null;
  return { address: `$${user}@${domain}`, user, domain };
}

const TEST_RECEIVERS: ReadonlyArray<{ prefix: string; kind: UmaTestReceiverKind }> = [
  { prefix: 'success.', kind: 'SUCCESS' },
  { prefix: 'pending.long.', kind: 'PENDING_LONG' },
  { prefix: 'fail.compliance.', kind: 'FAIL_COMPLIANCE' },
];

const SCENARIO_BY_KIND = { SUCCESS: 'SUCCESS', PENDING_LONG: 'UMA_PENDING_LONG', FAIL_COMPLIANCE: 'UMA_COMPLIANCE_REJECTED' } as const;

/**
 * Resolves an address to a sandbox test receiver. Throws DomainError INVALID_UMA_ADDRESS (400)
 * when malformed, UMA_NOT_FOUND (404) when no test receiver answers, and INVALID_CURRENCY (400)
 * when `requestedCurrency` is given and differs from the receiver's currency.
 */
export function resolveSandboxUmaReceiver(text: unknown, requestedCurrency?: string | null): SandboxUmaReceiver {
  const parsed = parseUmaAddress(text);
  if (!parsed) {
    throw new DomainError('INVALID_UMA_ADDRESS', 'umaAddress must look like $user@domain.com', {
      errors: [{ field: 'destination.umaAddress', constraint: { format: 'uma-address' }, message: 'umaAddress must look like $user@domain.com' }],
    });
  }
  const receiver = parsed.domain === SANDBOX_UMA_DOMAIN ? testReceiver(parsed) : null;
  if (!receiver) throw new DomainError('UMA_NOT_FOUND', `No UMA receiver answers at ${parsed.address}`);
  if (requestedCurrency !== undefined && requestedCurrency !== null && requestedCurrency !== receiver.currency) {
    throw new DomainError('INVALID_CURRENCY', `${parsed.address} receives ${receiver.currency}, not ${requestedCurrency}`, {
      errors: [{ field: 'destination.currency', constraint: { enum: [receiver.currency] }, message: `${parsed.address} receives ${receiver.currency} only` }],
    });
  }
  return receiver;
}

function testReceiver(parsed: UmaAddress): SandboxUmaReceiver | null {
  for (const { prefix, kind } of TEST_RECEIVERS) {
    if (!parsed.user.startsWith(prefix)) continue;
    const currency = parsed.user.slice(prefix.length).toUpperCase();
    if (!isCurrencyCode(currency)) return null;
    return { ...parsed, kind, currency, scenario: quoteScenarioByName(SCENARIO_BY_KIND[kind]) };
  }
  return null;
}
