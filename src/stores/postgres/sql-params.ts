/**
 * Collects the parameters of one statement and hands out their placeholders, so compiled SQL
 * refers to values only as `$n`.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(private readonly first = 1) {}

  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.first + this.values.length - 1}`;
  }
}

/** Escapes LIKE's wildcards and its escape character so the value matches only itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, '\\$&');
}
