import { PersonalDataKeys } from '../infra/crypto/personal-data';
import { RecordedEvent } from '../infra/event-store/event-store.port';
import { CustomerKybStatusChanged, CustomerKycStatusChanged, VerificationSubmitted } from './domain/customer/customer.events';
import { StoredCustomerView, customerViewFromEvents, verificationViewFromEvents } from './queries/customer.view';
import { openCustomerView } from './queries/personal-data-views';

/**
 * What the customers context's events mean as webhooks (DECISIONS.md section 6), for the
 * webhooks context to register: `CUSTOMER.KYC_<status>`, `CUSTOMER.KYB_<status>` and
 * `VERIFICATION.<status>`, each with the resource as its GET returned it right after the event.
 * `streamUpToEvent` is the customer's stream up to and including `event`.
 */
export const CUSTOMER_WEBHOOK_EVENT_TYPES = ['CustomerKycStatusChanged', 'CustomerKybStatusChanged', 'VerificationSubmitted'];

export function customerWebhooks(event: RecordedEvent, streamUpToEvent: RecordedEvent[]): Array<{ type: string; data: unknown }> {
  switch (event.type) {
    case 'CustomerKycStatusChanged': {
      const data = event.data as CustomerKycStatusChanged['data'];
      return [{ type: `CUSTOMER.KYC_${data.kycStatus}`, data: customerViewFromEvents(streamUpToEvent) }];
    }
    case 'CustomerKybStatusChanged': {
      const data = event.data as CustomerKybStatusChanged['data'];
      return [{ type: `CUSTOMER.KYB_${data.kybStatus}`, data: customerViewFromEvents(streamUpToEvent) }];
    }
    case 'VerificationSubmitted': {
      const data = event.data as VerificationSubmitted['data'];
      return [{ type: `VERIFICATION.${data.verificationStatus}`, data: verificationViewFromEvents(streamUpToEvent, data.verificationId) }];
    }
    default:
      return [];
  }
}

/**
 * The drafts with the customer views' sealed fields opened, as GET shows them (a field whose key
 * was erased since is left out). The webhooks mapper registered by CustomersModule sends these.
 */
export async function openCustomerWebhooks(drafts: Array<{ type: string; data: unknown }>, keys: PersonalDataKeys): Promise<Array<{ type: string; data: unknown }>> {
  return Promise.all(
    drafts.map(async (draft) =>
      draft.type.startsWith('CUSTOMER.') && draft.data ? { ...draft, data: await openCustomerView(draft.data as StoredCustomerView, keys) } : draft,
    ),
  );
}
