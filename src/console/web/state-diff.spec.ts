import { describe, expect, it } from '@jest/globals';
import { changedFields } from './state-diff';

describe('what an event changed', () => {
  it('lists added, removed and changed top-level fields, nested values compared whole', () => {
    expect(
      changedFields(
        { id: 'Customer:1', kycStatus: 'UNVERIFIED', address: { city: 'Paris' }, nickname: 'a' },
        { id: 'Customer:1', kycStatus: 'APPROVED', address: { city: 'Lyon' }, email: 'x@example.com' },
      ),
    ).toEqual([
      { field: 'kycStatus', before: '"UNVERIFIED"', after: '"APPROVED"' },
      { field: 'address', before: '{"city":"Paris"}', after: '{"city":"Lyon"}' },
      { field: 'email', after: '"x@example.com"' },
      { field: 'nickname', before: '"a"' },
    ]);
  });

  it('treats the first event as adding every field, and no state as empty', () => {
    expect(changedFields(undefined, { id: 'Card:1', state: 'PROCESSING' })).toEqual([
      { field: 'id', after: '"Card:1"' },
      { field: 'state', after: '"PROCESSING"' },
    ]);
    expect(changedFields({ a: 1 }, { a: 1 })).toEqual([]);
    expect(changedFields(null, 'text')).toEqual([]);
  });
});
