import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locatedUserJson, withLocation } from '../../src/core/handlers/user-response.js';
import type { ScimUser } from '../../src/schema/user-resource.js';

const URL = 'https://scim.example.org/api/v1/scim/v2/Users';

function user(meta: Record<string, unknown>, before: Record<string, unknown> = {}): ScimUser {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: 'u-1',
    userName: 'ada@example.org',
    ...before,
    meta,
  } as unknown as ScimUser;
}

const META = { resourceType: 'User', created: 'c', lastModified: 'm', version: 'W/"3"' };

describe('locatedUserJson', () => {
  it('writes the same text as serialising a copy with the location', () => {
    for (const u of [
      user(META),
      user({}),
      user(META, { name: { givenName: 'Ada', 'meta"': '}}' }, displayName: '"meta":{}}' }),
      user({ ...META, location: 'http://elsewhere/Users/u-1' }),
      { ...user(META), active: true } as ScimUser,
      { ...user(META), toJSON: () => ({ replaced: true }) } as unknown as ScimUser,
    ]) {
      expect(locatedUserJson(u, URL)).toBe(JSON.stringify(withLocation(u, URL)));
    }
  });

  it('escapes the location as JSON and keeps a "__proto__" member as data', () => {
    const odd = user(META);
    Object.defineProperty(odd, '__proto__', {
      value: { x: 1 },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const moved = { ...odd, meta: odd.meta } as ScimUser;
    for (const u of [odd, moved]) {
      const text = locatedUserJson(u, 'http://h/"quoted"\\/Users');
      expect(text).toBe(JSON.stringify(withLocation(u, 'http://h/"quoted"\\/Users')));
      expect(JSON.parse(text).meta.location).toBe('http://h/"quoted"\\/Users/u-1');
    }
  });

  it('agrees with JSON.stringify for any members in any order, meta anywhere', () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), json, { maxKeys: 5 }),
        fc.dictionary(fc.string(), json, { maxKeys: 4 }),
        fc.dictionary(fc.string(), json, { maxKeys: 3 }),
        (before, meta, after) => {
          const u = { ...before, id: 'x', meta, ...after } as unknown as ScimUser;
          expect(locatedUserJson(u, URL)).toBe(JSON.stringify(withLocation(u, URL)));
        },
      ),
    );
  });
});
