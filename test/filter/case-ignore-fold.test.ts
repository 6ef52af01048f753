import { describe, expect, it } from 'vitest';
import { compileSort, matchesFilter, parseFilter } from '../../src/filter/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';

const type = userResourceType();
const matches = (filter: string, user: Record<string, unknown>) =>
  matchesFilter(user, parseFilter(filter), type);

// caseIgnore comparisons use foldCase, the folding that keys userNames in the stores: where
// toLowerCase differs from simple case folding, the engine must side with the stores.
describe('caseIgnore comparisons fold as the stores key userNames', () => {
  it('treats the three sigmas, ẞ/ß and composed/decomposed accents as one letter each', () => {
    expect(matches('userName eq "ΣΟΦΟΣ@x"', { userName: 'σοφοσ@x' })).toBe(true);
    expect(matches('displayName eq "ΟΔΥΣΣΕΑΣ"', { displayName: 'οδυσσεασ' })).toBe(true);
    expect(matches('displayName sw "STRAẞ"', { displayName: 'straße' })).toBe(true);
    expect(matches('displayName co "E\u0301MI"', { displayName: 'Émile' })).toBe(true);
    expect(matches('userName ew "ſ@x"', { userName: 'les@x' })).toBe(true);
  });

  it('keeps ß and ss apart, and caseExact attributes exact', () => {
    expect(matches('displayName eq "strasse"', { displayName: 'straße' })).toBe(false);
    expect(matches('externalId eq "ÉMILE"', { externalId: 'émile' })).toBe(false);
  });

  it('orders caseIgnore strings by their folding (a final sigma sorts as σ)', () => {
    const users = ['ςc', 'σa', 'Σb'].map((displayName, i) => ({ id: String(i), displayName }));
    const sorted = [...users].sort(compileSort({ attribute: 'displayName' }, 'ascending', type));
    expect(sorted.map((u) => u.displayName)).toEqual(['σa', 'Σb', 'ςc']);
  });
});
