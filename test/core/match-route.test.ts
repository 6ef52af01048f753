import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { getResource as getUser } from '../../src/core/handlers/get-resource.js';
import { listResources as listUsers } from '../../src/core/handlers/list-resources.js';
import { matchRoute, routeTable } from '../../src/core/routes.js';

function statusOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return isScimError(error) ? error.status : undefined;
  }
  return undefined;
}

describe('matchRoute', () => {
  it('finds the collection with or without a trailing slash, whatever the case', () => {
    expect(matchRoute('GET', '/Users').handler).toBe(listUsers);
    expect(matchRoute('GET', '/Users/').handler).toBe(listUsers);
    expect(matchRoute('GET', '/users').handler).toBe(listUsers);
  });

  it('hands over the {id} segment, percent-decoded only when it holds an escape', () => {
    expect(matchRoute('GET', '/Users/01abc')).toEqual({
      handler: getUser,
      id: '01abc',
      endpoint: 'Users',
    });
    expect(matchRoute('GET', '/Users/a%40b').id).toBe('a@b');
    expect(matchRoute('GET', '/Users/a+b').id).toBe('a+b');
  });

  it('ignores empty segments, as a split and filter would', () => {
    expect(matchRoute('GET', '//Users//01abc/')).toEqual({
      handler: getUser,
      id: '01abc',
      endpoint: 'Users',
    });
  });

  it('answers 404 for a path too deep, an unknown endpoint or a bad escape, 405 for a wrong method', () => {
    expect(statusOf(() => matchRoute('GET', '/Users/01abc/extra'))).toBe(404);
    expect(statusOf(() => matchRoute('GET', '/Widgets'))).toBe(404);
    expect(statusOf(() => matchRoute('GET', '/.search/x'))).toBe(404);
    expect(statusOf(() => matchRoute('GET', '/Users/%zz'))).toBe(404);
    expect(statusOf(() => matchRoute('DELETE', '/Users'))).toBe(405);
  });

  // What the router answers, or the status it throws.
  const outcome = (run: () => unknown): unknown => {
    try {
      return run();
    } catch (error) {
      return isScimError(error) ? error.status : error;
    }
  };
  const pieces = ['/', '/', 'Users', 'users', '.search', 'Bulk', 'Me', 'x', '01abc', '%41', '%zz'];
  const paths = fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((p) => p.join(''));

  it('reads segments as split and filter do, from any offset', () => {
    const router = routeTable(new Map([['Users', 'Users']]), { me: true });
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'PUT'), paths, paths, (method, prefix, path) => {
        const canonical = `/${path
          .split('/')
          .filter((s) => s !== '')
          .join('/')}`;
        const expected = outcome(() => router(method, canonical));
        expect(outcome(() => router(method, path))).toEqual(expected);
        expect(outcome(() => router(method, `${prefix}${path}`, prefix.length))).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
