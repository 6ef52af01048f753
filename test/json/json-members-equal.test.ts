import { describe, expect, it } from 'vitest';
import { jsonMembersEqual } from '../../src/json/json-value.js';

describe('jsonMembersEqual', () => {
  const user = {
    id: '1',
    userName: 'a@example.org',
    name: { givenName: 'A' },
    roles: [{ value: 'x' }],
    meta: { version: 'W/"1"' },
  };

  it('ignores the named key, whatever it holds', () => {
    expect(jsonMembersEqual(user, { ...user, meta: { version: 'W/"2"' } }, 'meta')).toBe(true);
    const { meta: _meta, ...withoutMeta } = user;
    expect(jsonMembersEqual(user, withoutMeta, 'meta')).toBe(true);
  });

  it('sees a change in a nested value or in key order-independent content', () => {
    expect(jsonMembersEqual(user, { ...user, name: { givenName: 'B' } }, 'meta')).toBe(false);
    expect(
      jsonMembersEqual(
        user,
        { meta: user.meta, roles: user.roles, name: user.name, userName: user.userName, id: '1' },
        'meta',
      ),
    ).toBe(true);
  });

  it('sees a key present on one side only, in either direction', () => {
    expect(jsonMembersEqual(user, { ...user, title: 'Dr' }, 'meta')).toBe(false);
    expect(jsonMembersEqual({ ...user, title: 'Dr' }, user, 'meta')).toBe(false);
  });

  it('compares every member when no key is ignored', () => {
    expect(jsonMembersEqual(user, { ...user })).toBe(true);
    expect(jsonMembersEqual(user, { ...user, meta: { version: 'W/"2"' } })).toBe(false);
    const { meta: _meta, ...withoutMeta } = user;
    expect(jsonMembersEqual(user, withoutMeta)).toBe(false);
    expect(jsonMembersEqual(withoutMeta, user)).toBe(false);
  });
});
