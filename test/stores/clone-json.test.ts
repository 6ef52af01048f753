import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson, flatString } from '../../src/stores/memory/clone-json.js';

// Every object and array inside `value`, the value itself included.
function objectsIn(value: unknown, found: object[] = []): object[] {
  if (typeof value !== 'object' || value === null) return found;
  found.push(value);
  for (const member of Object.values(value)) objectsIn(member, found);
  return found;
}

describe('cloneJson, the memory store’s copy of JSON data', () => {
  it('copies any JSON value as structuredClone does, sharing no object with it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = cloneJson(value);
        expect(copy).toStrictEqual(structuredClone(value));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        const originals = new Set(objectsIn(value));
        for (const made of objectsIn(copy)) expect(originals.has(made)).toBe(false);
      }),
    );
  });

  it('keeps a "__proto__" member as a member, as structuredClone does', () => {
    const value = JSON.parse('{"__proto__":{"admin":true},"list":[{"__proto__":1}]}') as object;
    const copy = cloneJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'list']);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });
});

// Any UTF-16 code units, lone surrogates and U+0000 among them.
const anyText = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 })
  .map((codes) => String.fromCharCode(...codes));

describe('flatString, the memory store’s flat copy of a text it keeps', () => {
  it('gives back the same text for any text, lone surrogates and U+0000 included', () => {
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 8 }), (pieces) => {
        // A concatenation, as the core's ids are built: the case the store flattens.
        let text = '';
        for (const piece of pieces) text += piece;
        expect(flatString(text)).toBe(text);
      }),
    );
    for (const text of ['', '\u0000', '\ud800', 'welcome-\udfff', '"\\\n']) {
      expect(flatString(text)).toBe(text);
    }
  });
});
