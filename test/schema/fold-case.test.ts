import { describe, expect, it } from 'vitest';
import {
  UNICODE_VERSION,
  caseFoldingRuns,
  simpleCaseFolding,
} from '../../scripts/case-folding-source.js';
import {
  CASE_FOLDING_RUNS,
  CASE_FOLDING_UNICODE_VERSION,
} from '../../src/schema/case-folding-table.js';
import { foldCase, foldCodePoint } from '../../src/schema/fold-case.js';
import { userNameKey } from '../../src/schema/user-name-key.js';

const MAX = 0x10ffff;
const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;
const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

describe('the committed case-folding table', () => {
  it('is what the generator writes from the Unicode data package', () => {
    expect(CASE_FOLDING_UNICODE_VERSION).toBe(UNICODE_VERSION);
    expect(CASE_FOLDING_RUNS).toEqual(caseFoldingRuns(simpleCaseFolding()));
  });

  it('folds every code point as CaseFolding.txt (C + S) says, and nothing else', () => {
    const data = simpleCaseFolding();
    const wrong: string[] = [];
    for (let cp = 0; cp <= MAX; cp++) {
      if (foldCodePoint(cp) !== (data.get(cp) ?? cp)) wrong.push(hex(cp));
    }
    expect(wrong).toEqual([]);
    expect(data.size).toBeGreaterThan(1400);
  });

  // ECMAScript's /iu matching canonicalises with the same simple case folding, so this holds
  // the table to a second, independent source. It needs an engine on the table's Unicode
  // version: a newer or older engine differs on the characters added in between.
  it.skipIf(!process.versions.unicode?.startsWith(UNICODE_VERSION.replace(/\.0$/, '')))(
    "agrees with the engine's case-insensitive regular expressions on every code point",
    () => {
      const same = /^(.)\1$/su;
      const sameIgnoringCase = /^(.)\1$/isu;
      const wrong: string[] = [];
      for (let cp = 0; cp <= MAX; cp++) {
        if (isSurrogate(cp)) continue;
        const char = String.fromCodePoint(cp);
        const partners = new Set([foldCodePoint(cp)]);
        for (const mapped of [char.toLowerCase(), char.toUpperCase()]) {
          const only = [...mapped];
          if (only.length === 1) partners.add(only[0]!.codePointAt(0)!);
        }
        for (const other of partners) {
          const pair = char + String.fromCodePoint(other);
          const folded = foldCodePoint(cp) === foldCodePoint(other);
          if (sameIgnoringCase.test(pair) !== folded || (!same.test(pair) && cp === other))
            wrong.push(`${hex(cp)}~${hex(other)}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );
});

describe('foldCase', () => {
  it('folds accented Latin alike whether composed or decomposed', () => {
    const forms = ['Émile@x', 'émile@x', 'E\u0301mile@x', 'e\u0301mile@x', 'ÉMILE@X'];
    expect(new Set(forms.map(foldCase))).toEqual(new Set(['émile@x']));
  });

  it('folds Greek sigma in all three forms to one', () => {
    expect(foldCase('ΟΔΥΣΣΕΑΣ')).toBe(foldCase('οδυσσεας'));
    expect(foldCase('οδυσσεας')).toBe(foldCase('οδυσσεαΣ'));
    expect(foldCase('ς')).toBe(foldCase('σ'));
  });

  it('folds capital sharp s to ß but keeps ß apart from ss (simple, not full, folding)', () => {
    expect(foldCase('STRAẞE')).toBe(foldCase('straße'));
    expect(foldCase('straße')).not.toBe(foldCase('strasse'));
  });

  it('folds where toLowerCase does not, and not where it only lowers', () => {
    expect(foldCase('ſ')).toBe('s');
    expect(foldCase('\u212a')).toBe('k'); // KELVIN SIGN
    expect(foldCase('ϐ')).toBe(foldCase('β'));
    // Cherokee folds to upper case: both forms meet there.
    expect(foldCase('\uab70')).toBe('\u13a0');
    expect(foldCase('\u13a0')).toBe('\u13a0');
    // İ has only a full folding (i + U+0307): simple folding leaves it alone.
    expect(foldCase('İ')).toBe('İ');
  });

  it('lowers A–Z only on ASCII and leaves the rest as it is', () => {
    let ascii = '';
    for (let c = 0; c < 0x80; c++) ascii += String.fromCharCode(c);
    expect(foldCase(ascii)).toBe(ascii.replace(/[A-Z]/g, (c) => c.toLowerCase()));
  });

  it('is idempotent on every code point', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= MAX; cp++) {
      if (isSurrogate(cp)) continue;
      const once = foldCase(String.fromCodePoint(cp));
      if (foldCase(once) !== once) wrong.push(hex(cp));
    }
    expect(wrong).toEqual([]);
  });

  it('keys a userName by its folding', () => {
    expect(userNameKey('Ünal@X.org')).toBe(userNameKey('u\u0308nal@x.org'));
    expect(userNameKey('Ünal@X.org')).toBe('ünal@x.org');
  });
});
