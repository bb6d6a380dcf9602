import { AppConfig } from '../infra/config';
import { lastThree } from '../sandbox';
import { ContactChannel } from './domain/customer/contact-verification.events';

/**
 * Which contact channels the customer's payment provider requires verified before KYC, decided
 * once at creation. The sandbox simulates providers by the last three characters of the user
 * part of the customer's `email` (the suffix rule of docs/sandbox.md): `201` both, `202` email
 * only, `203` phone only, anything else (or no email) neither. Production mode wires no provider
 * that requires it (nor any email or SMS sender), so no customer needs contact verification there.
 */
const SANDBOX_PROVIDER_CHANNELS: Record<string, ContactChannel[]> = {
  '201': ['EMAIL', 'PHONE'],
  '202': ['EMAIL'],
  '203': ['PHONE'],
};

export function requiredContactChannels(config: Pick<AppConfig, 'mode'>, email: string | null): ContactChannel[] {
  if (config.mode !== 'sandbox') return [];
  return SANDBOX_PROVIDER_CHANNELS[lastThree(email) ?? ''] ?? [];
}

/** The sandbox's only code (like SCA's SMS code); nothing is sent. */
export const SANDBOX_CONTACT_VERIFICATION_CODE = '123456';

/** Code lifetime and the wrong-code lock: SCA's timing config (docs/sca.md), shared on purpose. */
export function contactCodePolicy(config: Pick<AppConfig, 'sca'>): { codeTtlMs: number; maxFailedAttempts: number; lockoutMs: number } {
  return { codeTtlMs: config.sca.challengeTtlMs, maxFailedAttempts: config.sca.maxFailedAttempts, lockoutMs: config.sca.lockoutMs };
}
