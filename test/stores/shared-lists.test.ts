import { describe, expect, it } from 'vitest';
import { SharedLists } from '../../src/stores/memory/shared-lists.js';
import { knownSettledWithoutWalk } from '../json/settled-helpers.js';

describe('SharedLists', () => {
  it('hands out one frozen array per list, whatever array the list comes in', () => {
    const lists = new SharedLists();
    const mutable = ['a', 'b'];
    const first = lists.share(mutable);
    // A list that can still change is copied before it is shared.
    expect(first).not.toBe(mutable);
    expect(first).toEqual(['a', 'b']);
    expect(Object.isFrozen(first)).toBe(true);
    expect(lists.share(['a', 'b'])).toBe(first);
    expect(lists.share(Object.freeze(['a', 'b']))).toBe(first);
    expect(lists.share(first)).toBe(first);
    mutable.push('c');
    expect(first).toEqual(['a', 'b']);
  });

  it('shares a frozen list itself, and gives it back as it is from then on', () => {
    const lists = new SharedLists();
    const frozen = Object.freeze(['x', 'y']);
    expect(lists.share(frozen)).toBe(frozen);
    expect(lists.share(frozen)).toBe(frozen);
    expect(lists.share(['x', 'y'])).toBe(frozen);
  });

  it('hands out lists known settled, so a user holding one is stored without walking it', () => {
    const lists = new SharedLists();
    expect(knownSettledWithoutWalk(lists.share(['a', 'b']))).toBe(true);
    expect(knownSettledWithoutWalk(lists.share(Object.freeze(['c', 'd'])))).toBe(true);
    // A frozen list that is not plain data (a getter) is shared as a settled copy.
    let calls = 0;
    const getter = Object.freeze(
      Object.defineProperty(['e'], 1, { enumerable: true, get: () => `f${calls++}` }),
    );
    const shared = lists.share(getter);
    expect(shared).not.toBe(getter);
    expect(shared[0]).toBe('e');
    expect(knownSettledWithoutWalk(shared)).toBe(true);
  });

  it('leaves anything but a list of strings as it is', () => {
    const lists = new SharedLists();
    const mixed = ['a', 1];
    expect(lists.share(mixed)).toBe(mixed);
    const notAList = { 0: 'a' };
    expect(lists.share(notAList)).toBe(notAList);
  });
});
