import { Injectable } from '@nestjs/common';
import { AccountsLedger } from '../../accounts';
import { customerAccountId } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { parseId, streamNameFor, uuidv7From, uuidv7Millis } from '../../infra/ids';
import { WalletAuthStore } from './wallet-auth.store';

/**
 * The initial EMAIL_OTP credential's id: derived from the wallet, so opening it twice is one
 * credential, and still a uuid v7 (DECISIONS.md section 1) timed like the wallet's own id.
 */
export function initialCredentialId(accountId: string): string {
  return `AuthMethod:${uuidv7From(`wallet-initial-email-otp:${accountId}`, uuidv7Millis(accountId) ?? 0)}`;
}

/**
 * A new embedded wallet starts with one EMAIL_OTP credential for the customer's email (SPEC.md
 * "Auth credential"). Opened in the POST /customers request (a customer-created hook, so the
 * answer already includes it) and again by a reactor on the wallet's `InternalAccountOpened`
 * (crash safety); the deterministic id and the decider make both one registration. A customer
 * without an email gets no initial credential: the platform registers the first one itself.
 */
@Injectable()
export class InitialCredentials {
  constructor(
    private readonly store: WalletAuthStore,
    private readonly events: EventStoreService,
    private readonly ledger: AccountsLedger,
  ) {}

  /** After POST /customers: the customer's USDB account, when it is an embedded wallet. */
  async openForCustomer(input: { platformId: string; customerId: string }): Promise<void> {
    const accountId = customerAccountId(input.customerId, 'USDB');
    let snapshot;
    try {
      snapshot = await this.ledger.snapshot({ platformId: input.platformId, accountId });
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'REFERENCE_NOT_FOUND')) return;
      throw error;
    }
    if (snapshot.accountType !== 'EMBEDDED_WALLET' || snapshot.customerId === null) return;
    await this.openForWallet({ platformId: input.platformId, accountId, customerId: snapshot.customerId, openedAt: snapshot.openedAt });
  }

  async openForWallet(input: { platformId: string; accountId: string; customerId: string; openedAt: string }): Promise<void> {
    const { email } = await this.customerContact(input.customerId);
    if (email === null) return;
    const handled = await this.store.handleWallet(input.accountId, {
      type: 'RegisterInitialCredential',
      platformId: input.platformId,
      accountId: input.accountId,
      credentialId: initialCredentialId(input.accountId),
      email,
      now: input.openedAt,
    });
    // The reactor may have opened it first: the POST /customers answer still waits until the read
    // model shows it.
    if (handled.events.length === 0) await this.store.includeWalletInOwnWrites(input.accountId);
  }

  /**
   * The customer's email and phone number from its stream (the customers read model may lag
   * behind a reactor). Reads only the published payload fields `profile.<field>` and
   * `changes.<field>`. Also the contact of an EMAIL_OTP or SMS_OTP credential registered without one.
   */
  async customerContact(customerId: string): Promise<{ email: string | null; phoneNumber: string | null }> {
    const contact: { email: string | null; phoneNumber: string | null } = { email: null, phoneNumber: null };
    if (!parseId('Customer', customerId)) return contact;
    type Contact = { email?: string | null; phoneNumber?: string | null };
    for (const event of await this.events.readStream(streamNameFor(customerId))) {
      const data = event.data as { profile?: Contact; changes?: Contact };
      if (event.type === 'CustomerCreated') {
        contact.email = data.profile?.email ?? null;
        contact.phoneNumber = data.profile?.phoneNumber ?? null;
      }
      if (event.type === 'CustomerUpdated' && data.changes) {
        if ('email' in data.changes) contact.email = data.changes.email ?? null;
        if ('phoneNumber' in data.changes) contact.phoneNumber = data.changes.phoneNumber ?? null;
      }
    }
    return contact;
  }
}
