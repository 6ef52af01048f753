import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { keepImmutable } from '../../src/schema/check-immutable.js';
import { defineAttribute as attr } from '../../src/schema/define-attribute.js';

const code = attr('code', 'string', { mutability: 'immutable' });
const badges = attr('badges', 'string', { multiValued: true, mutability: 'immutable' });

function detail(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isScimError(error) && error.scimType === 'mutability') return error.detail;
    throw error;
  }
  throw new Error('expected a 400 mutability ScimError');
}

describe('keepImmutable', () => {
  it('keeps the stored spelling and order of a value restated equal', () => {
    expect(keepImmutable(code, 'straße-ς', 'STRAẞE-Σ', 'code', 'refuse')).toBe('straße-ς');
    const stored = ['b', 'a'];
    expect(keepImmutable(badges, stored, ['A', 'B'], 'badges', 'refuse')).toBe(stored);
    const same = ['b', 'a'];
    expect(keepImmutable(badges, stored, same, 'badges', 'refuse')).toBe(same);
  });

  it('keeps or refuses a value left out, and treats [] and null as unassigned', () => {
    expect(keepImmutable(code, 'x', undefined, 'code', 'keep')).toBe('x');
    expect(detail(() => keepImmutable(code, 'x', undefined, 'code', 'refuse'))).toBe(
      '"code" is immutable: it is already set to "x" and cannot be removed.',
    );
    expect(keepImmutable(badges, [], ['a'], 'badges', 'refuse')).toEqual(['a']);
    expect(keepImmutable(code, null, 'y', 'code', 'refuse')).toBe('y');
  });

  it('shows at most 120 characters of a value in the error', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `badge-${i}`);
    const text = detail(() => keepImmutable(badges, many, ['x'], 'badges', 'refuse'));
    expect(text.length).toBeLessThan(200);
    expect(text).toContain('…');
  });
});
