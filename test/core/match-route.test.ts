import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { getResource as getUser } from '../../src/core/handlers/get-resource.js';
import { listResources as listUsers } from '../../src/core/handlers/list-resources.js';
import { matchRoute } from '../../src/core/routes.js';

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
});
