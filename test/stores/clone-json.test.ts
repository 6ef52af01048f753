import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../src/stores/memory/clone-json.js';

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
