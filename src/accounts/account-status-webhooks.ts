import { RecordedEvent } from '../infra/event-store/event-store.port';
import type { WebhookDraft, WebhookMapper } from '../webhooks';
import { externalAccountDecider } from './domain/external-account/external-account.decider';
import { ExternalAccountEvent } from './domain/external-account/external-account.events';
import { externalAccountView } from './queries/external-account.view';
import { internalAccountViewFromEvents } from './queries/internal-account.view';

/** The events that change an account's status (docs/accounts.md, "Account statuses"). */
export const ACCOUNT_STATUS_EVENT_TYPES = ['InternalAccountStatusChanged', 'ExternalAccountStatusChanged'];

/**
 * `INTERNAL_ACCOUNT.STATUS_UPDATED` / `EXTERNAL_ACCOUNT.STATUS_UPDATED` for a status change, with
 * `data` the account exactly as its GET answered right after it, folded from `streamUpToEvent`
 * (the account's stream up to and including the event). `privateEnabled` is an embedded wallet's
 * privacy setting, which its ledger stream does not carry.
 */
export function accountStatusWebhooks(event: RecordedEvent, streamUpToEvent: RecordedEvent[], privateEnabled?: boolean | null): WebhookDraft[] {
  const platformId = (event.data as { platformId: string }).platformId;
  if (event.type === 'InternalAccountStatusChanged') {
    const view = internalAccountViewFromEvents(streamUpToEvent, privateEnabled);
    return view ? [{ type: 'INTERNAL_ACCOUNT.STATUS_UPDATED', data: view, platformId }] : [];
  }
  let state = externalAccountDecider.initialState();
  for (const recorded of streamUpToEvent) {
    state = externalAccountDecider.evolve(state, { type: recorded.type, data: recorded.data } as unknown as ExternalAccountEvent);
  }
  return state.status === 'active' ? [{ type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED', data: externalAccountView(state), platformId }] : [];
}

/**
 * The registered mapper of status changes. They are rare (an account closes once), so each one
 * reads its account's stream up to the event, as the GET view is folded from it.
 */
export class AccountStatusWebhookMapper implements WebhookMapper {
  readonly eventTypes = ACCOUNT_STATUS_EVENT_TYPES;

  constructor(
    private readonly readStreamUpTo: (event: RecordedEvent) => Promise<RecordedEvent[]>,
    /** An embedded wallet's privacy setting as the internal-accounts read model holds it. */
    private readonly privacyOf: (platformId: string, accountId: string) => Promise<boolean | null | undefined>,
  ) {}

  /** The account's platform, from the event (a reactor or a task appended it). */
  platformOf(event: RecordedEvent): string | null {
    return (event.data as { platformId?: string }).platformId ?? null;
  }

  async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
    const stream = await this.readStreamUpTo(event);
    const opened = stream[0]?.type === 'InternalAccountOpened' ? (stream[0].data as { platformId: string; accountId: string; accountType: string }) : null;
    const privateEnabled = opened?.accountType === 'EMBEDDED_WALLET' ? ((await this.privacyOf(opened.platformId, opened.accountId)) ?? false) : undefined;
    return accountStatusWebhooks(event, stream, privateEnabled);
  }
}
