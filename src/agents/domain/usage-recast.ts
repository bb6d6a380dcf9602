import { UsageReservation } from './agent-action.events';
import { AgentActionState, isUnsettled } from './agent-actions';
import { UsdValues, convertMinor } from './policy/evaluation';
import { AgentUsageCounters } from './usage';

/**
 * A change of `spendingLimits.currency` re-expresses the usage in the new currency, recorded in
 * the `AgentPolicyChanged` event (docs/agents.md "Usage accounting"): every reservation that still
 * counts (not rejected, not failed) is converted at the change's rate snapshot, rounded up like
 * every conversion of the policy, and the counters become the sums of the converted reservations
 * of their day and month. The actions that can still be given back (pending, or approved and not
 * yet run) keep their converted reservation, so a later rejection or failure releases exactly
 * what the counters hold for them.
 */
export interface UsageRecast {
  usage: AgentUsageCounters;
  /** The converted reservation of each action that can still be released, by action id. */
  reservations: Record<string, UsageReservation>;
}

export function recastUsage(usage: AgentUsageCounters, actions: Record<string, AgentActionState>, currency: string, usdValues: UsdValues): UsageRecast {
  const recast: UsageRecast = { usage: { ...usage, dailySpend: 0, monthlySpend: 0 }, reservations: {} };
  for (const action of Object.values(actions)) {
    if (action.status === 'REJECTED' || action.status === 'FAILED') continue;
    const amount = convertMinor(action.reservation.amount, action.reservation.currency, currency, usdValues);
    if (action.reservation.day === usage.day) recast.usage.dailySpend += amount;
    if (action.reservation.month === usage.month) recast.usage.monthlySpend += amount;
    if (isReleasable(action)) recast.reservations[action.actionId] = { ...action.reservation, amount, currency };
  }
  return recast;
}

/** Pending, or approved and not yet run: a rejection or a failure may still give it back. */
function isReleasable(action: AgentActionState): boolean {
  return action.status === 'PENDING_APPROVAL' || isUnsettled(action);
}

/** The actions with their converted reservations. */
export function withRecastReservations(actions: Record<string, AgentActionState>, reservations: Record<string, UsageReservation>): Record<string, AgentActionState> {
  const next = { ...actions };
  for (const [actionId, reservation] of Object.entries(reservations)) {
    if (next[actionId]) next[actionId] = { ...next[actionId], reservation };
  }
  return next;
}
