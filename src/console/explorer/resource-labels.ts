/**
 * One line a person recognises a resource by in search results and related lists: its name or
 * its platform's id for it, then what it is and where it stands, from the fields its view has.
 */
const LABEL_FIELDS = ['fullName', 'legalName', 'name', 'platformCustomerId', 'platformCardId', 'code', 'type', 'status', 'state'] as const;

export function labelOf(type: string, state: unknown): string {
  if (!state || typeof state !== 'object') return type;
  const view = state as Record<string, unknown>;
  const business = (view.businessInfo ?? {}) as Record<string, unknown>;
  const parts = LABEL_FIELDS.map((field) => view[field] ?? business[field]).filter((value): value is string => typeof value === 'string' && value.length > 0);
  const amount = amountOf(view);
  if (amount) parts.push(amount);
  return parts.length > 0 ? [type, ...new Set(parts)].join(' · ') : type;
}

/** `10000 USD` from a transaction's sent amount, an account's balance or a quote's total. */
function amountOf(view: Record<string, unknown>): string | null {
  const money = (view.sentAmount ?? view.balance ?? view.totalSendingAmount ?? view.amount) as { amount?: unknown; currency?: unknown } | undefined;
  if (!money || typeof money !== 'object' || typeof money.amount !== 'number') return null;
  const currency = money.currency as { code?: unknown } | string | undefined;
  const code = typeof currency === 'string' ? currency : typeof currency?.code === 'string' ? currency.code : '';
  return `${money.amount} ${code}`.trim();
}
