import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frozenCopy, frozenNextVersion } from '../../src/stores/memory/clone-json.js';
import { exactObject } from '../../src/json/exact-objects.js';

// The memory store keeps what it stores in a compact layout, a device behind the memory store's
// seam; these tests hold that layout to the plain behaviour.

describe('exactObject, the seam that lays stored objects out at their exact size', () => {
  it('makes an object that is a plain `{}` to every reader', () => {
    for (const members of [0, 1, 2, 7, 16, 17, 40]) {
      const made = exactObject(members);
      expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
      expect(Object.keys(made)).toEqual([]);
      expect(made.constructor).toBe(Object);
      expect(Object.prototype.toString.call(made)).toBe('[object Object]');
      expect(JSON.stringify(made)).toBe('{}');
      made.a = 1;
      expect(made).toStrictEqual({ a: 1 });
    }
  });

  it('gives frozen copies equal to the JSON they copy, members in order', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 20 }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json, { maxKeys: 20 }), (source) => {
        // The generated objects have no prototype; JSON gives the same members on a plain one.
        const plain = JSON.parse(JSON.stringify(source)) as object;
        const copy = frozenCopy(source);
        expect(copy).toStrictEqual(plain);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
        expect(Object.isFrozen(copy)).toBe(true);
        const next = frozenNextVersion({ ...plain, added: 1 }, copy);
        expect(next).toStrictEqual({ ...plain, added: 1 });
      }),
    );
  });

  it('keeps a "__proto__" member as a member, not as the prototype', () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
    const copy = frozenCopy(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });
});
