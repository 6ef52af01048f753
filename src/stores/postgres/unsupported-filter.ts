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
