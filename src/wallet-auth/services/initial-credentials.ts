import { Injectable } from '@nestjs/common';
import { AccountsLedger } from '../../accounts';
import { customerAccountId } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { parseId, streamNameFor, uuidv7From, uuidv7Millis } from '../../infra/ids';

/**
 * The initial EMAIL_OTP credential's id: derived from the wallet, so opening it twice is one
 * credential, and still a uuid v7 (DECISIONS.md section 1) timed like the wallet's own id.
 */
export function initialCredentialId(accountId: string): string {
  return `AuthMethod:${uuidv7From(`wallet-initial-email-otp:${accountId}`, uuidv7Millis(accountId) ?? 0)}`;
}

/** The embedded wallet a customer got when created (the input of OpenInitialCredential). */
export interface NewWallet {
  platformId: string;
  accountId: string;
  customerId: string;
  openedAt: string;
}

/**
 * What opening a wallet's initial credential reads from other streams: the customer's wallet and
 * its contact. The opening itself is the OpenInitialCredential command.
 */
@Injectable()
export class InitialCredentials {
  constructor(
    private readonly events: EventStoreService,
    private readonly ledger: AccountsLedger,
  ) {}

  /** After POST /customers: the customer's USDB account, when it is an embedded wallet (else null). */
  async walletOfCustomer(input: { platformId: string; customerId: string }): Promise<NewWallet | null> {
    const accountId = customerAccountId(input.customerId, 'USDB');
    let snapshot;
    try {
      snapshot = await this.ledger.snapshot({ platformId: input.platformId, accountId });
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'REFERENCE_NOT_FOUND')) return null;
      throw error;
    }
    if (snapshot.accountType !== 'EMBEDDED_WALLET' || snapshot.customerId === null) return null;
    return { platformId: input.platformId, accountId, customerId: snapshot.customerId, openedAt: snapshot.openedAt };
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
