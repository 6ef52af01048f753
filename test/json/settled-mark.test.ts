import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isSettled, SettledBuilder, settledCopy } from '../../src/json/settled-json.js';
import { deepFreeze, knownSettledWithoutWalk } from './settled-helpers.js';

// The mark src/json/settled-json.ts gives what it makes settled: a private field, no property
// key at all. None of the ways a program reads or copies plain data may see it, and nothing but
// the object it was given to may pass for marked.

// A user as a client sends it, and the same settled by each of the module's two makers.
function plainUser() {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: 'u-1',
    userName: 'ada@example.org',
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: 'ada@example.org', primary: true }],
    active: true,
    meta: { resourceType: 'User', version: 'W/"1"' },
  };
}

function built(): Readonly<Record<string, unknown>> {
  const user = plainUser();
  const builder = new SettledBuilder(Object.keys(user).length);
  for (const [key, value] of Object.entries(user)) builder.set(key, value);
  return builder.finish();
}

const MADE = {
  'a settled copy': () => settledCopy(plainUser()) as Record<string, unknown>,
  'a built object': built,
};

describe('the settled mark (src/json/settled-json.ts)', () => {
  for (const [made, make] of Object.entries(MADE)) {
    it(`is invisible in ${made}: JSON, keys, spread, assign, structuredClone, inspect, equality`, () => {
      const marked = make();
      const plain = plainUser();
      expect(knownSettledWithoutWalk(marked)).toBe(true);
      expect(JSON.stringify(marked)).toBe(JSON.stringify(plain));
      expect(Object.keys(marked)).toEqual(Object.keys(plain));
      expect(Reflect.ownKeys(marked)).toEqual(Object.keys(plain));
      const forIn: string[] = [];
      for (const key in marked) forIn.push(key);
      expect(forIn).toEqual(Object.keys(plain));
      expect(Object.getOwnPropertySymbols({ ...marked })).toEqual([]);
      expect(Object.getOwnPropertySymbols(Object.assign({}, marked))).toEqual([]);
      const cloned = structuredClone(marked);
      expect(Reflect.ownKeys(cloned)).toEqual(Object.keys(plain));
      expect(cloned).toStrictEqual(plain);
      expect(inspect(marked)).toBe(inspect(deepFreeze(plainUser())));
      expect(inspect(marked, { depth: Infinity })).toBe(inspect(plain, { depth: Infinity }));
      expect(marked).toEqual(plain);
      expect(marked).toStrictEqual(plain);
      expect(plain).toStrictEqual(marked);
    });

    it(`leaves ${made} frozen, of data members only`, () => {
      const marked = make();
      expect(Object.isFrozen(marked)).toBe(true);
      for (const member of Reflect.ownKeys(marked)) {
        const descriptor = Object.getOwnPropertyDescriptor(marked, member);
        expect(descriptor && 'value' in descriptor).toBe(true);
        expect(descriptor?.writable).toBe(false);
        expect(descriptor?.configurable).toBe(false);
      }
      // The parts of a settled value are not marked: only the whole value is.
      expect(Object.getOwnPropertySymbols(marked.name as object)).toEqual([]);
    });

    it(`does not mark a copy of ${made}, however it is copied`, () => {
      const marked = make();
      const copies = {
        spread: { ...marked },
        assign: Object.assign({}, marked),
        structuredClone: structuredClone(marked),
        descriptors: Object.defineProperties({}, Object.getOwnPropertyDescriptors(marked)),
      };
      for (const copy of Object.values(copies)) {
        // Open, so not settled, whatever it carries.
        expect(isSettled(copy)).toBe(false);
        // Frozen, it is settled as any host's frozen value is: proved by a walk, not the mark.
        deepFreeze(copy);
        expect(knownSettledWithoutWalk(copy)).toBe(false);
        expect(isSettled(copy)).toBe(true);
      }
    });
  }

  it('marks a settled copy of an array, invisibly', () => {
    const list = settledCopy(['a', 'b']);
    expect(knownSettledWithoutWalk(list)).toBe(true);
    expect(Object.isFrozen(list)).toBe(true);
    expect(JSON.stringify(list)).toBe('["a","b"]');
    expect(Object.keys(list)).toEqual(['0', '1']);
    expect(Reflect.ownKeys(list)).toEqual(['0', '1', 'length']);
    expect([...list]).toEqual(['a', 'b']);
    expect(list).toStrictEqual(['a', 'b']);
    expect(inspect(list)).toBe(inspect(['a', 'b']));
    expect(Reflect.ownKeys(structuredClone(list))).toEqual(['0', '1', 'length']);
  });

  it('does not take a symbol of the same description, or an inherited mark, for the mark', () => {
    // Own symbols described as the mark is, holding the object, on open objects: not settled.
    for (const symbol of [Symbol('settled'), Symbol.for('settled')]) {
      const open: Record<symbol | string, unknown> = { a: 1 };
      open[symbol] = open;
      expect(isSettled(open)).toBe(false);
      // Frozen, it is settled (JSON has no symbols), proved by a walk as any host's value is.
      expect(knownSettledWithoutWalk(Object.freeze(open))).toBe(false);
    }
    // An object whose prototype is marked: not settled, and, as the version a builder replaces,
    // not taken for a settled one (its own open member is copied, not shared unchecked).
    const marked = settledCopy({ n: [1] });
    expect(isSettled(Object.create(marked))).toBe(false);
    const previous = Object.create(marked) as { n: number[] };
    // Its own member (an assignment would meet the prototype's read-only `n`).
    Object.defineProperty(previous, 'n', { value: [2], enumerable: true, writable: true });
    const builder = new SettledBuilder(1, previous);
    builder.set('n', previous.n);
    const done = builder.finish();
    expect(isSettled(done)).toBe(false);
    expect(done.n).toBe(previous.n);
  });

  it('keeps the cache for what a walk proved: a frozen value cannot take the mark', () => {
    const hosts = deepFreeze(plainUser());
    expect(knownSettledWithoutWalk(hosts)).toBe(false);
    expect(knownSettledWithoutWalk(hosts)).toBe(true);
    expect(Object.getOwnPropertySymbols(hosts)).toEqual([]);
    // Copied settled, it is itself: settled already.
    expect(settledCopy(hosts)).toBe(hosts);
  });
});
