import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Currency, currency } from '../../shared/currencies';
import { ExistingInvitation, InvitationState, invitationDecider, isExpiredAt } from '../domain/invitation/invitation.decider';
import { InvitationEvent, InvitationStatus } from '../domain/invitation/invitation.events';

/**
 * An invitation as `GET /invitations/{code}` returns it (the reference's UmaInvitation; null
 * fields are left out on the wire), and as `INVITATION.CLAIMED` carries it.
 * @example
 * {
 *   "code": "019a4a1918747c6d8e2a4b9f0a3d1c58",
 *   "createdAt": "2025-11-03T14:22:30.004Z",
 *   "claimedAt": "2025-11-03T15:01:12.250Z",
 *   "url": "https://pay.example.com/i/019a4a1918747c6d8e2a4b9f0a3d1c58",
 *   "expiresAt": "2025-11-10T14:22:30.000Z",
 *   "inviterUma": "$alice@pay.example.com",
 *   "inviteeUma": "$bob@other.example.com",
 *   "status": "CLAIMED",
 *   "firstName": "Bob",
 *   "amountToSend": { "amount": 2500, "currency": { "code": "USD", "name": "United States Dollar", "symbol": "$", "decimals": 2 } }
 * }
 */
export interface InvitationView {
  code: string;
  createdAt: string;
  claimedAt: string | null;
  url: string;
  expiresAt: string | null;
  inviterUma: string;
  inviteeUma: string | null;
  status: InvitationStatus;
  firstName: string | null;
  amountToSend: { amount: number; currency: Currency } | null;
}

/** What a view is made of: the write side's state and the read model's record both carry it. */
export type InvitationViewSource = Omit<ExistingInvitation, 'invitationId' | 'platformId' | 'inviterCustomerId' | 'cancelledAt'>;

/** The invitation as recorded: PENDING, CLAIMED or CANCELLED (see `invitationViewAt` for expiry). */
export function invitationView(source: InvitationViewSource): InvitationView {
  return {
    code: source.code,
    createdAt: source.createdAt,
    claimedAt: source.claimedAt,
    url: source.url,
    expiresAt: source.expiresAt,
    inviterUma: source.inviterUma,
    inviteeUma: source.inviteeUma,
    status: source.status,
    firstName: source.firstName,
    amountToSend: source.amountToSend ? { amount: source.amountToSend.amount, currency: currency(source.amountToSend.currency) } : null,
  };
}

/** The view as shown at `now`: a PENDING invitation past its `expiresAt` shows EXPIRED (no event records it). */
export function invitationViewAt(view: InvitationView, now: string): InvitationView {
  return view.status === 'PENDING' && isExpiredAt(view.expiresAt, now) ? { ...view, status: 'EXPIRED' } : view;
}

/** The invitation as GET answered right after the last of `events`, or null before it exists. */
export function invitationViewFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): InvitationView | null {
  let state: InvitationState = invitationDecider.initialState();
  for (const event of events) state = invitationDecider.evolve(state, event as unknown as InvitationEvent);
  return state.status === 'none' ? null : invitationView(state);
}
