import { describe, expect, it } from 'vitest';
import { jsonEqualExcept } from '../../src/core/users/changed-attributes.js';

describe('jsonEqualExcept', () => {
  const user = {
    id: '1',
    userName: 'a@example.org',
    name: { givenName: 'A' },
    roles: [{ value: 'x' }],
    meta: { version: 'W/"1"' },
  };

  it('ignores the named key, whatever it holds', () => {
    expect(jsonEqualExcept(user, { ...user, meta: { version: 'W/"2"' } }, 'meta')).toBe(true);
    const { meta: _meta, ...withoutMeta } = user;
    expect(jsonEqualExcept(user, withoutMeta, 'meta')).toBe(true);
  });

  it('sees a change in a nested value or in key order-independent content', () => {
    expect(jsonEqualExcept(user, { ...user, name: { givenName: 'B' } }, 'meta')).toBe(false);
    expect(
      jsonEqualExcept(
        user,
        { meta: user.meta, roles: user.roles, name: user.name, userName: user.userName, id: '1' },
        'meta',
      ),
    ).toBe(true);
  });

  it('sees a key present on one side only, in either direction', () => {
    expect(jsonEqualExcept(user, { ...user, title: 'Dr' }, 'meta')).toBe(false);
    expect(jsonEqualExcept({ ...user, title: 'Dr' }, user, 'meta')).toBe(false);
  });
});
