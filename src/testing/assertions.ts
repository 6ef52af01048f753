import { isScimError } from '../errors/index.js';

/**
 * Signals that a conformance case found the store misbehaving.
 *
 * @internal
 */
export class ConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceError';
  }
}

/** Signals that a case does not apply to the store under test. */
export class CaseSkipped extends Error {
  constructor(
    /** Why the case does not apply. */
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'CaseSkipped';
  }
}

const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));

/** Tells whether two JSON values are equal, ignoring key order and keys whose value is undefined. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!jsonEqual(left[key], right[key])) return false;
  return true;
}

/** The assertions the conformance cases use. */
interface Check {
  ok(condition: unknown, message: string): asserts condition;
  equal<T>(actual: T, expected: T, what: string): void;
  deepEqual(actual: unknown, expected: unknown, what: string): void;
  sameUsers(actual: unknown, expected: unknown, what: string): void;
  rejects(
    action: Promise<unknown>,
    status: number,
    scimType: string | undefined,
    what: string,
  ): Promise<void>;
}

/**
 * `value` without a `groups` member, when it is an object that has one (a user as the core
 * hands it to `create` and `replace`).
 *
 * @internal
 */
export function withoutGroups<T>(value: T): T {
  if (typeof value !== 'object' || value === null || !('groups' in value)) return value;
  const { groups: _groups, ...rest } = value as Record<string, unknown>;
  return rest as T;
}

/**
 * The conformance suite's own assertions, so that it runs under any test runner.
 *
 * @internal
 */
export const check: Check = {
  /** Fails unless `condition` holds. */
  ok(condition: unknown, message: string): asserts condition {
    if (!condition) throw new ConformanceError(message);
  },
  /** Fails unless `actual === expected`. */
  equal<T>(actual: T, expected: T, what: string): void {
    if (actual !== expected) {
      throw new ConformanceError(`${what}: expected ${show(expected)}, got ${show(actual)}`);
    }
  },
  /** Fails unless two JSON values are structurally equal. */
  deepEqual(actual: unknown, expected: unknown, what: string): void {
    if (!jsonEqual(actual, expected)) {
      throw new ConformanceError(
        `${what}:\n  expected ${show(expected)}\n  got      ${show(actual)}`,
      );
    }
  },
  /**
   * Fails unless a user a store returned (or an array of them) equals `expected` apart from
   * the `groups` a store may hand over with a user it read (see `UserStore`): those are read
   * with the user, never stored, and `users.groups-carried` checks them.
   */
  sameUsers(actual: unknown, expected: unknown, what: string): void {
    check.deepEqual(
      Array.isArray(actual) ? actual.map(withoutGroups) : withoutGroups(actual),
      expected,
      what,
    );
  },
  /** Fails unless `action` rejects with a SCIM error of this status (and scimType). */
  async rejects(
    action: Promise<unknown>,
    status: number,
    scimType: string | undefined,
    what: string,
  ) {
    let outcome: unknown;
    try {
      outcome = await action;
    } catch (error) {
      if (!isScimError(error)) {
        throw new ConformanceError(`${what}: expected a ScimError ${status}, got ${String(error)}`);
      }
      check.equal(error.status, status, `${what}: status`);
      if (scimType !== undefined) check.equal(error.scimType, scimType, `${what}: scimType`);
      return;
    }
    throw new ConformanceError(
      `${what}: expected a ScimError ${status}, but it resolved to ${show(outcome)}`,
    );
  },
};
