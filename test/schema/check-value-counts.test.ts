import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { checkValueCounts } from '../../src/schema/check-value-counts.js';
import { DISTRICT, resourceType } from './fixtures.js';

const values = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `v${i}` }));

function refusal(run: () => void): string {
  try {
    run();
  } catch (error) {
    if (isScimError(error) && error.status === 400) return error.detail;
    throw error;
  }
  throw new Error('expected a 400 ScimError');
}

describe('checkValueCounts', () => {
  it('refuses a list over the limit in an extension, one object down', () => {
    const next = { userName: 'ada', [DISTRICT]: { tags: ['a', 'b', 'c'] } };
    expect(refusal(() => checkValueCounts(next, resourceType, 2))).toMatch(
      `"${DISTRICT}:tags" would hold 3 values`,
    );
    expect(() => checkValueCounts(next, resourceType, 3)).not.toThrow();
  });

  it('names the first attribute over the limit in schema order, whatever the key order', () => {
    const next = { userName: 'ada', roles: values(4), emails: values(3) };
    expect(refusal(() => checkValueCounts(next, resourceType, 2))).toMatch(
      /^"emails" would hold 3/,
    );
  });

  it('lets a stored list over the limit shrink but not grow', () => {
    const current = { userName: 'ada', emails: values(5) };
    expect(() =>
      checkValueCounts({ userName: 'ada', emails: values(4) }, resourceType, 2, current),
    ).not.toThrow();
    expect(
      refusal(() =>
        checkValueCounts({ userName: 'ada', emails: values(6) }, resourceType, 2, current),
      ),
    ).toMatch(/"emails" would hold 6/);
  });
});
