/**
 * How the service writes JSON on the wire (HTTP answers, stored idempotent answers, webhook
 * bodies): a field whose value is `null` is left out. The production contract omits absent
 * optional fields rather than sending null, and views keep `null` for "absent" internally.
 *
 * The one field the contract declares both required and nullable (`Card.maxSpendPerTransaction`)
 * is written as `jsonNull`, which serializes to a kept `null`.
 */
export const jsonNull: { toJSON(): null } = Object.freeze({ toJSON: () => null });

/** JSON.stringify's replacer: `this[key]` is the value before toJSON, so only a plain null is dropped. */
export function omitNulls(this: Record<string, unknown>, key: string, value: unknown): unknown {
  return value === null && this[key] === null && !Array.isArray(this) ? undefined : value;
}

export function toWireJson(value: unknown): string {
  return JSON.stringify(value, omitNulls);
}
