/** Why the compiler could not express a filter or sort in SQL. */
export type UnsupportedReason = 'unknown-attribute' | 'unsupported';

/** Thrown by the filter and sort compilers for what they cannot express in SQL. */
export class UnsupportedFilterError extends Error {
  constructor(
    message: string,
    /** `unknown-attribute` when the schemas given do not define the path. */
    readonly reason: UnsupportedReason = 'unsupported',
  ) {
    super(message);
    this.name = 'UnsupportedFilterError';
  }
}

/**
 * Tells whether a compiler accepts the input, for a store's `capabilities`. A path unknown to
 * the store's default resource type counts as supported: the core checked it against the
 * host's type, which `list` receives.
 */
export function compiles(compile: () => unknown): boolean {
  try {
    compile();
    return true;
  } catch (error) {
    return error instanceof UnsupportedFilterError && error.reason === 'unknown-attribute';
  }
}
