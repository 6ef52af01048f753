// Helpers of the tests of settled values (src/json/settled-json.ts) and of what keeps them.
import { vi } from 'vitest';
import { isSettled } from '../../src/json/settled-json.js';

/**
 * Tells whether `value` is known settled without a walk: `isSettled` answers true without
 * reading any member's descriptor (a mark or a cache entry answered it).
 */
export function knownSettledWithoutWalk(value: unknown): boolean {
  const walk = vi.spyOn(Object, 'getOwnPropertyDescriptor');
  try {
    return isSettled(value) && walk.mock.calls.length === 0;
  } finally {
    walk.mockRestore();
  }
}

/** Freezes `value` and every object and array in it, by hand: settled, but with no mark. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
