/**
 * What an event changed: the top-level fields of a resource's state that differ between the
 * revision before it and its own (specified by state-diff.spec.ts). Time travel shows these next
 * to the state, so an auditor sees at a glance what each event did.
 */

export interface FieldChange {
  field: string;
  before?: string;
  after?: string;
}

/** Each added, removed or changed top-level field, in the order the state lists them; values as compact JSON. */
export function changedFields(before: unknown, after: unknown): FieldChange[] {
  const old = asRecord(before);
  const now = asRecord(after);
  const fields = [...new Set([...Object.keys(now), ...Object.keys(old)])];
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const was = compact(old[field]);
    const is = compact(now[field]);
    if (was !== is) changes.push({ field, ...(was !== undefined ? { before: was } : {}), ...(is !== undefined ? { after: is } : {}) });
  }
  return changes;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function compact(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}
