import { idConstraint, newId, parseId, uuidv7From, uuidv7Millis } from './ids';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('makes uuid v7 ids that carry their creation time', () => {
    const before = Date.now();
    const id = newId('Quote');
    expect(id).toMatch(/^Quote:/);
    expect(parseId('Quote', id)).toMatch(V7);
    const millis = uuidv7Millis(id)!;
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(Date.now());
  });

  it('derives deterministic ids that are still well-formed uuid v7 with the given time', () => {
    const at = Date.parse('2026-11-22T06:00:00.000Z');
    const first = uuidv7From('internal-account:Customer:x:USD', at);
    expect(first).toMatch(V7);
    expect(uuidv7From('internal-account:Customer:x:USD', at)).toBe(first);
    expect(uuidv7From('internal-account:Customer:x:EUR', at)).not.toBe(first);
    expect(uuidv7From('internal-account:Customer:x:USD', at + 1)).not.toBe(first);
    expect(uuidv7Millis(first)).toBe(at);
    for (let index = 0; index < 200; index++) expect(uuidv7From(`name-${index}`, at + index)).toMatch(V7);
  });

  it('reads no time from ids that are not uuid v7', () => {
    expect(uuidv7Millis('6f1c0e4a-2b7d-5c1e-9a3f-5d8b7c6e4a21')).toBeNull();
    expect(uuidv7Millis('Quote:not-a-uuid')).toBeNull();
    expect(uuidv7Millis(`Customer:${uuidv7From('x', 1_700_000_000_000)}`)).toBe(1_700_000_000_000);
  });

  it('hints an id field with a named format, or the pattern several id types share', () => {
    expect(idConstraint('Customer')).toEqual({ format: 'Customer-id' });
    const either = idConstraint('ExternalAccount', 'InternalAccount');
    expect(either).toEqual({ pattern: '^(ExternalAccount|InternalAccount):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });
    const pattern = new RegExp((either as { pattern: string }).pattern);
    expect([newId('InternalAccount'), newId('ExternalAccount'), newId('Customer'), 'InternalAccount:nope'].map((id) => pattern.test(id))).toEqual([true, true, false, false]);
  });
});
