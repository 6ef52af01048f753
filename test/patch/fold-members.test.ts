import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { valueKey } from '../../src/patch/value-key.js';
import { foldCase } from '../../src/schema/fold-case.js';
import type { AttributeDefinition } from '../../src/schema/types.js';
import { message, OPTIONS, storedUser } from './fixtures.js';

type Json = Record<string, unknown>;

// Final sigma, small sigma and capital sigma are one letter under Unicode simple case folding
// (the folding of userName and filters) but not under toLowerCase: 'ς'.toLowerCase() is 'ς'.
const roles = (...values: string[]) => values.map((value) => ({ value }));

describe('the same member of a multi-valued attribute, regardless of case', () => {
  // Short lists are scanned, long ones (16 values and more) are looked up in an index: both
  // must agree with foldCase.
  for (const filler of [0, 40]) {
    const stored = { ...storedUser(), roles: [...roles('ας'), ...roles(...fill(filler))] };

    it(`merges an added "ΑΣ" or "ασ" into the stored "ας" (${filler + 1} roles)`, () => {
      for (const spelling of ['ασ', 'ΑΣ']) {
        const { resource, changed } = applyPatch(
          stored,
          message({ op: 'add', path: 'roles', value: [{ value: spelling }] }),
          OPTIONS,
        );
        expect(changed).toBe(false);
        expect(
          (resource.roles as Json[]).filter((r) => foldCase(r.value as string) === 'ασ'),
        ).toEqual([{ value: 'ας' }]);
      }
    });

    it(`removes the stored "ας" by the value "ασ" (${filler + 1} roles)`, () => {
      const { resource } = applyPatch(
        stored,
        message({ op: 'remove', path: 'roles', value: [{ value: 'ασ' }] }),
        OPTIONS,
      );
      expect(resource.roles ?? []).toHaveLength(filler);
    });
  }

  it('valueKey gives every code point the key of what it folds to', () => {
    const caseIgnore = { name: 'value', type: 'string', caseExact: false } as AttributeDefinition;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const folded = foldCase(c);
      if (folded === c) continue;
      expect([cp.toString(16), valueKey(caseIgnore, c)]).toEqual([
        cp.toString(16),
        valueKey(caseIgnore, folded),
      ]);
    }
  });
});

function fill(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `role-${i}`);
}
