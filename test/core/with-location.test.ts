import { describe, expect, it } from 'vitest';
import { withLocation } from '../../src/core/http/response-json.js';
import type { ScimUser } from '../../src/schema/user-resource.js';

const stored = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: '01abc',
  userName: 'ada@example.org',
  active: true,
  name: { givenName: 'Ada' },
  meta: {
    resourceType: 'User',
    created: '2026-01-01T00:00:00.000Z',
    lastModified: '2026-01-01T00:00:00.000Z',
    version: 'W/"1"',
  },
} as unknown as ScimUser;

describe('withLocation', () => {
  it('adds meta.location and keeps every other member, in order', () => {
    const out = withLocation(stored, 'https://scim.example.org/v2/Users');
    expect(out.meta.location).toBe('https://scim.example.org/v2/Users/01abc');
    expect(Object.keys(out)).toEqual(Object.keys(stored));
    expect({ ...out, meta: { ...out.meta, location: undefined } }).toEqual({
      ...stored,
      meta: { ...stored.meta, location: undefined },
    });
  });

  it('leaves the stored user as it was', () => {
    const before = JSON.stringify(stored);
    withLocation(stored, 'https://scim.example.org/v2/Users');
    expect(JSON.stringify(stored)).toBe(before);
    expect(stored.meta.location).toBeUndefined();
  });

  it('keeps an own "__proto__" member as data, never as the prototype', () => {
    const odd = { ...stored } as Record<string, unknown>;
    Object.defineProperty(odd, '__proto__', {
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const out = withLocation(odd as unknown as ScimUser, 'https://h/Users') as unknown as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
