/** Thrown by the filter compiler for a filter it cannot express in SQL. */
export class UnsupportedFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedFilterError';
  }
}
