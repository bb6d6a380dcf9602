import { Injectable } from '@nestjs/common';
import { customerDecider } from '../../customers';
import { CustomerEvent } from '../../customers';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor, uuidv7From, uuidv7Millis } from '../../infra/ids';
import { STABLECOINS, isCurrencyCode } from '../../shared/currencies';
import { InternalAccountType } from '../domain/internal-account/internal-account.events';
import { AccountsLedger, INTERNAL_ACCOUNT_STREAM, OpenAccountInput } from '../ledger/accounts-ledger';
import { CommandStore } from '../../infra/commands/command-store';
import { CUSTOMER_STREAM } from '../../customers';

/** How often one customer's provisioning re-decides after another writer moved the customer or an account. */
const MAX_PROVISION_ATTEMPTS = 20;

/**
 * Deterministic ids: provisioning twice (request and reactor, or a replay) opens one account.
 * They are uuid v7 carrying the owner's creation time, like every other id.
 */
export function customerAccountId(customerId: string, currency: string): string {
  return `InternalAccount:${uuidv7From(`internal-account:${customerId}:${currency}`, uuidv7Millis(customerId) ?? 0)}`;
}

export function platformAccountId(platformId: string, currency: string): string {
  return `InternalAccount:${uuidv7From(`platform-account:${platformId}:${currency}`, uuidv7Millis(platformId) ?? 0)}`;
}

/** USDB is the embedded wallet's currency; other stablecoins and BTC are crypto holdings. */
export function customerAccountType(currency: string): InternalAccountType {
  if (currency === 'USDB') return 'EMBEDDED_WALLET';
  return STABLECOINS.has(currency) || currency === 'BTC' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

function platformAccountType(currency: string): InternalAccountType {
  return STABLECOINS.has(currency) || currency === 'BTC' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/**
 * Opens internal accounts: one per supported currency of the platform for each customer (an
 * EMBEDDED_WALLET account in USDB when USDB is supported), and the platform's own accounts; closes
 * a deleted customer's.
 */
@Injectable()
export class InternalAccountProvisioner {
  constructor(
    private readonly ledger: AccountsLedger,
    private readonly events: EventStoreService,
    private readonly commands: CommandStore,
  ) {}

  async provisionCustomer(input: { platformId: string; customerId: string; createdAt: string }): Promise<void> {
    const currencies = await this.supportedCurrencies(input.platformId);
    await this.provisionCustomerCurrencies({ platformId: input.platformId, customerId: input.customerId, currencies, openedAt: input.createdAt });
  }

  /**
   * Opens the customer's accounts in `currencies` (already open ones are left as they are), only
   * while the customer is not deleted. Whoever calls (the POST /customers request, the
   * customer-lifecycle reactor long after, the customer-currency-accounts reactor from a read
   * model that may lag a deletion), the decision is taken here, on the customer's own stream:
   * the customer decider refuses `OpenInternalAccounts` once the customer is deleted.
   *
   * Why one commit: the customer's `CustomerInternalAccountsOpened`, at the revision the decision
   * was read at, is appended together with every account's `InternalAccountOpened` (each account
   * stream expected not to exist). A deletion that lands after the read takes that revision
   * first, so the commit fails and the next round reads the deletion and opens nothing; a
   * deletion after the commit finds the accounts open, and they stay (deleting a customer closes
   * no account). Checking the customer's stream and then opening would leave that window open,
   * and an expected revision alone checks nothing unless the commit writes to the stream: hence
   * the customer event. Event stores without multi-stream commits (EventStoreDB) append the
   * customer event first and open after; the decider then answers an account already recorded
   * with nothing to add, even after a deletion, so a retry finishes what was decided, and closes
   * what it opened if the customer is deleted by then (the deletion's closing may have run first).
   *
   * Why the first round reads no account stream (trustRecorded): with atomic commits an account the
   * customer's stream records was opened in the same commit, and one it does not record is opened
   * expecting no stream, so an account opened some other way (before openings were recorded, or
   * by a racing provisioning) fails the commit and the next round reads every account. A new
   * customer's request, and the reactor's second run of it, then read two streams (the platform's
   * and the customer's) instead of one per currency more.
   */
  async provisionCustomerCurrencies(input: { platformId: string; customerId: string; currencies: string[]; openedAt: string }): Promise<void> {
    const wanted: OpenAccountInput[] = input.currencies.filter(isCurrencyCode).map((currency) => ({
      platformId: input.platformId,
      accountId: customerAccountId(input.customerId, currency),
      customerId: input.customerId,
      accountType: customerAccountType(currency),
      currency,
      openedAt: input.openedAt,
    }));
    const customerStream = streamNameFor(input.customerId);
    const metadata = { platformId: input.platformId };
    for (let attempt = 1; ; attempt++) {
      // First, with atomic commits, the customer's stream alone says what is open (see trustRecorded).
      const trustRecorded = attempt === 1 && this.ledger.supportsAtomicSteps;
      const unopened = trustRecorded ? null : new Set(await this.ledger.unopened(wanted.map((account) => account.accountId)));
      const { state, revision } = await this.commands.load(CUSTOMER_STREAM, customerStream);
      const recorded = new Set(state.status === 'none' ? [] : (state.internalAccountIds ?? []));
      const missing = wanted.filter((account) => (unopened ? unopened.has(account.accountId) : !recorded.has(account.accountId)));
      if (missing.length === 0) return;
      let decided: CustomerEvent[];
      try {
        decided = customerDecider.decide(
          { type: 'OpenInternalAccounts', accounts: missing.map(({ accountId, currency }) => ({ accountId, currency })), now: input.openedAt },
          state,
        );
      } catch (error) {
        if (error instanceof DomainError && error.code === 'CUSTOMER_DELETED') return;
        throw error;
      }
      if (decided.length > 0 && revision !== 'no_stream' && this.ledger.supportsAtomicSteps) {
        const outcome = await this.ledger.openAllWith(missing, { streamName: customerStream, events: decided, expectedRevision: revision, metadata });
        if (outcome.kind === 'applied') return;
        if (outcome.reason !== 'UNSUPPORTED') {
          if (attempt >= MAX_PROVISION_ATTEMPTS) throw new DomainError('CONFLICT', 'The customer is too busy; retry the request');
          continue;
        }
      }
      // Sequential: the decision first, then the accounts it covers (and any recorded before).
      if (decided.length > 0) {
        try {
          await this.commands.commit([{ type: CUSTOMER_STREAM, state, streamName: customerStream, events: decided, expectedRevision: revision, metadata }]);
        } catch (error) {
          if (error instanceof ConcurrencyError && attempt < MAX_PROVISION_ATTEMPTS) continue;
          throw error;
        }
      }
      for (const account of missing) await this.ledger.open(account);
      const after = await this.commands.load(CUSTOMER_STREAM, customerStream);
      if (after.state.status === 'deleted' && after.state.deletedAt) {
        await this.close(input.platformId, missing.map((account) => account.accountId), after.state.deletedAt);
      }
      return;
    }
  }

  /**
   * Closes the accounts of a deleted customer (a closed one stays as it is), at the deletion's
   * time so that a replay closes them alike. Candidates: the accounts the customer's stream
   * records, and its account id in every currency the platform ever supported (ids derive from
   * customer and currency), for accounts opened before openings were recorded there. Those not
   * open are skipped (one opened after the deletion is closed by the provisioning that opens it).
   */
  async closeCustomerAccounts(input: { platformId: string; customerId: string; closedAt: string }): Promise<void> {
    const { state } = await this.commands.load(CUSTOMER_STREAM, streamNameFor(input.customerId));
    const recorded = state.status === 'none' ? [] : (state.internalAccountIds ?? []);
    const everSupported = new Set(supportedCurrencyLists(await this.events.readStream(streamNameFor(input.platformId))).flat());
    const derived = [...everSupported].filter(isCurrencyCode).map((currency) => customerAccountId(input.customerId, currency));
    const candidates = [...new Set([...recorded, ...derived])];
    const unopened = new Set(await this.ledger.unopened(candidates));
    await this.close(input.platformId, candidates.filter((accountId) => !unopened.has(accountId)), input.closedAt);
  }

  private async close(platformId: string, accountIds: string[], closedAt: string): Promise<void> {
    for (const accountId of accountIds) {
      await this.commands.handle(
        INTERNAL_ACCOUNT_STREAM,
        streamNameFor(accountId),
        { type: 'CloseInternalAccount', reason: 'CUSTOMER_DELETED', now: closedAt },
        // The account's platform is the tenant of its events, whoever asks (a reactor).
        { metadata: { platformId } },
      );
    }
  }

  /**
   * The platform's supported currencies just before the platform event at `revision`: what a
   * configuration change added is its new list minus this one.
   */
  async supportedCurrenciesBefore(platformId: string, revision: number): Promise<string[]> {
    const events = await this.events.readStream(streamNameFor(platformId));
    return currenciesOf(events.filter((event) => event.revision < revision));
  }

  /**
   * The platform's supported currencies from its event stream rather than the platform-config
   * read model, which a reactor may run ahead of (a customer created right after its platform).
   * Reads the published payloads of `PlatformRegistered` / `PlatformConfigUpdated` only.
   */
  private async supportedCurrencies(platformId: string): Promise<string[]> {
    return currenciesOf(await this.events.readStream(streamNameFor(platformId)));
  }

  async provisionPlatform(input: { platformId: string; currencies: string[]; at: string }): Promise<void> {
    for (const currency of input.currencies.filter(isCurrencyCode)) {
      await this.ledger.open({
        platformId: input.platformId,
        accountId: platformAccountId(input.platformId, currency),
        customerId: null,
        accountType: platformAccountType(currency),
        currency,
        openedAt: input.at,
      });
    }
  }
}

/** The platform's supported currencies as of its last event. */
function currenciesOf(platformEvents: Array<{ type: string; data: Record<string, unknown> }>): string[] {
  return supportedCurrencyLists(platformEvents).at(-1) ?? [];
}

/** Each list of supported currencies the platform's events set, oldest first. */
function supportedCurrencyLists(platformEvents: Array<{ type: string; data: Record<string, unknown> }>): string[][] {
  const lists: string[][] = [];
  for (const event of platformEvents) {
    const data = event.data as {
      config?: { supportedCurrencies?: Array<{ currencyCode: string }> };
      changes?: { supportedCurrencies?: Array<{ currencyCode: string }> };
    };
    const list = event.type === 'PlatformRegistered' ? data.config?.supportedCurrencies : event.type === 'PlatformConfigUpdated' ? data.changes?.supportedCurrencies : undefined;
    if (list) lists.push(list.map((entry) => entry.currencyCode));
  }
  return lists;
}
