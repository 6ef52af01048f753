import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  compileSort,
  filterWorkMeter,
  parseFilter,
} from '../../src/filter/index.js';
import { isScimError } from '../../src/errors/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';

const type = userResourceType();
const users = [
  {
    id: '1',
    userName: 'ada@example.org',
    displayName: 'Ada',
    emails: [{ value: 'a@x', type: 'work' }],
  },
  { id: '2', userName: 'émile@example.org', displayName: 'ÉMILE', roles: [{ value: 'Σ' }] },
  { id: '3', userName: 'grace@example.org', title: 'Rear Admiral', active: true },
];
const filters = [
  'userName co "example"',
  'displayName eq "émile"',
  'emails[type eq "work" and value sw "a"]',
  'roles.value eq "ς" or title pr',
  'not (active eq true) and displayName ne "Ada"',
  'meta.created gt "2020-01-01T00:00:00Z" or userName ew ".org"',
];

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isScimError(error)) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('the filter work meter', () => {
  it('a metered filter answers exactly as an unmetered one', () => {
    for (const text of filters) {
      const plain = compileFilter(parseFilter(text), type);
      const metered = compileFilter(parseFilter(text), type, filterWorkMeter(1e9));
      expect(
        users.map((u) => metered(u)),
        text,
      ).toEqual(users.map((u) => plain(u)));
    }
  });

  it('charges the text a comparison folds: non-ASCII text costs more than ASCII of its length', () => {
    const test = (value: string, limit: number) =>
      compileFilter(
        parseFilter('displayName co "zz"'),
        type,
        filterWorkMeter(limit),
      )({
        displayName: value,
      });
    expect(test('a'.repeat(100), 500)).toBe(false);
    const error = refusal(() => test('é'.repeat(100), 500));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe('tooMany');
    expect(error.detail).toMatch(/more than 500 units of work \(maxFilterWork\)/);
  });

  it('charges every term on every value of a multi-valued attribute', () => {
    const roles = Array.from({ length: 100 }, (_, i) => ({ value: `r${i}` }));
    const terms = (n: number) =>
      Array.from({ length: n }, (_, k) => `roles.value eq "x${k}"`).join(' or ');
    const run = (n: number) =>
      compileFilter(parseFilter(terms(n)), type, filterWorkMeter(50_000))({ roles });
    expect(run(5)).toBe(false);
    expect(refusal(() => run(50)).scimType).toBe('tooMany');
  });

  it('charges a sort its keys and comparisons', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({
      id: `${i}`,
      displayName: `Ü${i}`.repeat(50),
    }));
    const sortBy = { attribute: 'displayName' };
    const refused = refusal(() =>
      [...many].sort(compileSort(sortBy, 'ascending', type, filterWorkMeter(10_000))),
    );
    expect(refused.scimType).toBe('tooMany');
    const sorted = [...many].sort(compileSort(sortBy, 'ascending', type, filterWorkMeter(1e9)));
    expect(sorted.map((u) => u.id)).toEqual(
      [...many].sort(compileSort(sortBy, 'ascending', type)).map((u) => u.id),
    );
  });
});
