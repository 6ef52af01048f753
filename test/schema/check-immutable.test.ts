import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { checkImmutable } from '../../src/schema/check-immutable.js';
import { DISTRICT, resourceType } from './fixtures.js';

const stored = {
  id: 'u1',
  userName: 'ada@example.org',
  [DISTRICT]: {
    studentNumber: 'S-100',
    homeRoom: 'b12',
    tags: ['chess', 'choir'],
    guardian: { name: 'Grace', since: '2020-09-01T00:00:00Z' },
  },
};
const put = (values: Record<string, unknown>) => ({
  userName: 'ada@example.org',
  [DISTRICT]: values,
});

function mutability(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isScimError(error) && error.status === 400 && error.scimType === 'mutability')
      return error.detail;
    throw error;
  }
  throw new Error('expected a 400 mutability ScimError');
}

describe('checkImmutable (PUT)', () => {
  it('lets an immutable value be set when the stored one is unset', () => {
    const next = put({ studentNumber: 'S-1' });
    expect(checkImmutable({ id: 'u1', userName: 'ada@example.org' }, next, resourceType)).toEqual(
      next,
    );
  });

  it('accepts the stored value again, refuses another one with 400 mutability naming the attribute', () => {
    const same = put({ studentNumber: 'S-100', homeRoom: 'b12', tags: ['chess', 'choir'] });
    expect(checkImmutable(stored, same, resourceType)).toMatchObject(same);
    expect(
      mutability(() => checkImmutable(stored, put({ studentNumber: 'S-200' }), resourceType)),
    ).toBe(
      `"${DISTRICT}:studentNumber" is immutable: it is already set to "S-100" and cannot become "S-200".`,
    );
  });

  it('compares strings regardless of case unless caseExact, multi-valued values in any order', () => {
    expect(() => checkImmutable(stored, put({ homeRoom: 'B12' }), resourceType)).not.toThrow();
    expect(
      mutability(() => checkImmutable(stored, put({ studentNumber: 's-100' }), resourceType)),
    ).toMatch(/studentNumber/);
    expect(() =>
      checkImmutable(stored, put({ tags: ['choir', 'chess'] }), resourceType),
    ).not.toThrow();
    expect(
      mutability(() => checkImmutable(stored, put({ tags: ['chess'] }), resourceType)),
    ).toMatch(/:tags"/);
  });

  it('keeps a set immutable value the PUT leaves out', () => {
    const next = checkImmutable(stored, { userName: 'ada@example.org' }, resourceType);
    expect(next[DISTRICT]).toEqual({
      studentNumber: 'S-100',
      homeRoom: 'b12',
      tags: ['chess', 'choir'],
      guardian: { since: '2020-09-01T00:00:00Z' },
    });
  });

  it('checks immutable sub-attributes of a singular complex attribute', () => {
    const guardian = (since: string) =>
      put({ studentNumber: 'S-100', guardian: { name: 'Alan', since } });
    expect(
      checkImmutable(stored, guardian('2020-09-01T00:00:00Z'), resourceType)[DISTRICT],
    ).toMatchObject({
      guardian: { name: 'Alan', since: '2020-09-01T00:00:00Z' },
    });
    expect(
      mutability(() => checkImmutable(stored, guardian('2021-01-01T00:00:00Z'), resourceType)),
    ).toMatch(/:guardian\.since" is immutable/);
  });

  it('is pure: returns next itself when nothing is kept, and never changes its arguments', () => {
    const next = { userName: 'grace@example.org', displayName: 'Grace' };
    expect(checkImmutable({ id: 'u1', userName: 'ada@example.org' }, next, resourceType)).toBe(
      next,
    );
    const before = JSON.stringify(stored);
    const sent = put({ studentNumber: 'S-100' });
    const sentBefore = JSON.stringify(sent);
    checkImmutable(stored, sent, resourceType);
    expect(JSON.stringify(stored)).toBe(before);
    expect(JSON.stringify(sent)).toBe(sentBefore);
  });
});

describe('a PUT over attributes immutable cannot hold back', () => {
  it('leave a PUT over every other attribute exactly as sent', () => {
    const stored = { id: 'u1', userName: 'ada@example.org', displayName: 'Ada', title: 'Dr' };
    const next = { userName: 'ada@example.org', title: 'Prof' };
    expect(checkImmutable(stored, next, resourceType)).toBe(next);
  });
});
