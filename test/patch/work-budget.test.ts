import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter, parseFilter } from '../../src/filter/index.js';
import { applyPatch } from '../../src/patch/index.js';
import { valueKey } from '../../src/patch/value-key.js';
import type { AttributeDefinition } from '../../src/schema/types.js';
import { failure, message, OPTIONS, resourceTypeOf, storedUser } from './fixtures.js';

type Json = Record<string, unknown>;

/** A stored user with `n` roles `r0`…`r{n-1}`. */
function userWithRoles(n: number): Json {
  const roles = Array.from({ length: n }, (_, i) => ({ value: `r${i}`, display: `Role ${i}` }));
  return { ...storedUser(), roles };
}

describe('the cost of a PATCH', () => {
  it('1,000 value-filter operations on 15,000 roles fit in a budget linear in both', () => {
    const user = userWithRoles(15_000);
    const before = structuredClone(user);
    const ops = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0
        ? { op: 'remove', path: `roles[value eq "R${i * 7}"]` }
        : { op: 'replace', path: `roles[value eq "r${i * 7}"].display`, value: `x${i}` },
    );
    // Copying, indexing and writing back 15,000 values plus about one visit per operation: a
    // scan of the list per operation would need 15,000,000 visits.
    const { resource } = applyPatch(user, message(...ops), { ...OPTIONS, maxWork: 2_000_000 });
    const roles = resource.roles as Json[];
    expect(roles).toHaveLength(14_500);
    expect(roles.some((r) => r.value === 'r0' || r.value === 'r14')).toBe(false);
    expect(roles.find((r) => r.value === 'r7')).toEqual({ value: 'r7', display: 'x1' });
    expect(roles[0]).toEqual({ value: 'r1', display: 'Role 1' });
    expect(user).toEqual(before);
  });

  it('adds and removes by value through the index: 1,000 values into 15,000', () => {
    const user = userWithRoles(15_000);
    const added = Array.from({ length: 1000 }, (_, i) => ({
      value: `R${i * 15}`,
      display: 'again',
    }));
    const gone = Array.from({ length: 1000 }, (_, i) => ({ value: `r${i * 15 + 1}` }));
    const { resource } = applyPatch(
      user,
      message(
        { op: 'add', path: 'roles', value: [...added, { value: 'new' }] },
        { op: 'remove', path: 'roles', value: gone },
      ),
      { ...OPTIONS, maxWork: 2_000_000 },
    );
    const roles = resource.roles as Json[];
    // Known members merge (keeping their own spelling of `value`); one is new; 1,000 go.
    expect(roles).toHaveLength(14_001);
    expect(roles[0]).toEqual({ value: 'r0', display: 'again' });
    expect(roles.at(-1)).toEqual({ value: 'new' });
    expect(roles.some((r) => r.value === 'r1')).toBe(false);
  });

  it('looks up the most selective equality of an `and`', () => {
    // Every role has the same type: an index on `type` would hand every operation all of them.
    const user = userWithRoles(10_000);
    (user.roles as Json[]).forEach((r) => (r.type = 'course'));
    const ops = Array.from({ length: 1000 }, (_, i) => ({
      op: 'remove',
      path: `roles[type eq "course" and value eq "r${i}"]`,
    }));
    const { resource } = applyPatch(user, message(...ops), { ...OPTIONS, maxWork: 2_000_000 });
    expect(resource.roles).toHaveLength(9_000);
  });

  it('stops a PATCH that needs more than maxWork units: 400 invalidValue, input unchanged', () => {
    const user = userWithRoles(2_000);
    const before = structuredClone(user);
    // `co` cannot use an index: every operation scans all 2,000 values.
    const ops = Array.from({ length: 100 }, (_, i) => ({
      op: 'remove',
      path: `roles[display co "Role ${i}x"]`,
    }));
    const error = failure(() =>
      applyPatch(user, message(...ops), { ...OPTIONS, maxWork: 500_000 }),
    );
    expect(error.status).toBe(400);
    expect(error.scimType).toBe('invalidValue');
    expect(error.detail).toMatch(
      /^Operation \d+: .*more than 500,000 units of work \(maxPatchWork\)/,
    );
    expect(user).toEqual(before);
    // The same PATCH within its budget applies (nothing matches, so nothing changes).
    expect(applyPatch(user, message(...ops), { ...OPTIONS, maxWork: 20_000_000 }).changed).toBe(
      false,
    );
  });

  it('the default budget refuses the worst scan: 1,000 unindexed filters on 10,000 values', () => {
    const user = userWithRoles(10_000);
    const ops = Array.from({ length: 1000 }, (_, i) => ({
      op: 'remove',
      path: `roles[not (value eq "r${i}")]`,
    }));
    const error = failure(() => applyPatch(user, message(...ops), OPTIONS));
    expect(error.scimType).toBe('invalidValue');
    expect(error.detail).toMatch(/more than 20,000,000 units of work \(maxPatchWork\)/);
  });
});

describe('index lookups agree with scans', () => {
  const words = ['a', 'A', 'b', 'work', 'WORK', 'Σ', 'σ', 'ς', 'ß', 'ẞ', 'É', 'e\u0301', 'ſ', 's'];
  const text = fc.constantFrom(...words);
  const value = fc.record(
    {
      value: text,
      type: fc.constantFrom('work', 'home', 'Work'),
      primary: fc.constantFrom(false, false, false, true),
      display: text,
    },
    { requiredKeys: [] },
  );
  const literal = text.map((w) => JSON.stringify(w));
  const filter = fc.oneof(
    literal.map((l) => `value eq ${l}`),
    literal.map((l) => `type eq ${l}`),
    fc.constantFrom('primary eq true', 'primary eq "True"'),
    fc.tuple(literal, literal).map(([a, b]) => `type eq ${a} and value eq ${b}`),
  );
  const operation = fc.oneof(
    fc
      .tuple(fc.constantFrom('add', 'replace', 'remove'), filter, fc.option(text))
      .map(([op, f, v]) =>
        v === null
          ? { op, path: `roles[${f}]`, value: { display: 'd' } }
          : { op, path: `roles[${f}].value`, value: v },
      ),
    fc
      .tuple(fc.constantFrom('add', 'remove'), fc.array(value, { maxLength: 3 }))
      .map(([op, v]) => ({
        op,
        path: 'roles',
        value: v,
      })),
  );
  // Padding values no generated filter or value can match (lists this long are indexed).
  const padding = Array.from({ length: 40 }, (_, i) => ({ value: `pad-${i}`, type: 'pad' }));
  const isPadding = (v: unknown) => (v as Json).type === 'pad';

  it('a long list gives the same result as a short one with the same members', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 6 }),
        fc.array(operation, { minLength: 1, maxLength: 5 }),
        (roles, ops) => {
          const short = run({ ...storedUser(), roles }, ops);
          const long = run({ ...storedUser(), roles: [...padding, ...roles] }, ops);
          if ('error' in short || 'error' in long) {
            expect(long).toEqual(short);
            return;
          }
          const longRoles = ((long.resource.roles ?? []) as unknown[]).filter((v) => !isPadding(v));
          expect(longRoles).toEqual(short.resource.roles ?? []);
        },
      ),
      { numRuns: 300 },
    );
  });

  function run(user: Json, ops: unknown[]) {
    try {
      return { resource: applyPatch(user, message(...ops), OPTIONS).resource };
    } catch (error) {
      return {
        error: failure(() => {
          throw error;
        }).detail,
      };
    }
  }

  it('valueKey never separates two values a filter eq finds equal, for every cased code point', () => {
    const caseIgnore = { name: 'value', type: 'string', caseExact: false } as AttributeDefinition;
    const schema = resourceTypeOf([
      { id: 's', name: 's', description: '', attributes: [caseIgnore] },
    ]);
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const lower = c.toLowerCase();
      const upper = c.toUpperCase();
      if (lower === c && upper === c) continue;
      // Unicode simple case folding (what a `/iu` regex compares by) and lower-casing alike.
      const ignoreCase = new RegExp(`^${c.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`, 'iu');
      for (const d of new Set([lower, upper, lower.toUpperCase(), upper.toLowerCase()])) {
        const equal = compileFilter(
          parseFilter(`value eq ${JSON.stringify(c)}`),
          schema,
        )({ value: d });
        if (equal || ignoreCase.test(d) || lower === d.toLowerCase()) {
          expect([cp.toString(16), valueKey(caseIgnore, d)]).toEqual([
            cp.toString(16),
            valueKey(caseIgnore, c),
          ]);
        }
      }
    }
  });

  it('valueKey folds composed and decomposed accents, Greek sigmas and ß alike', () => {
    const caseIgnore = { name: 'value', type: 'string', caseExact: false } as AttributeDefinition;
    const caseExact = { ...caseIgnore, caseExact: true };
    const key = (s: string) => valueKey(caseIgnore, s);
    expect(key('ÉMILE')).toBe(key('e\u0301mile'));
    expect(key('ΟΔΟΣ')).toBe(key('οδοσ'));
    expect(key('οδος')).toBe(key('οδοσ'));
    expect(key('ẞ')).toBe(key('ß'));
    expect(key('Kelvin \u212a')).toBe(key('kelvin k'));
    expect(valueKey(caseExact, 'A')).not.toBe(valueKey(caseExact, 'a'));
    expect(valueKey(caseIgnore, 7)).toBe(7);
  });
});
