import { foldCase } from '../../schema/fold-case.js';

const foldStrings = (_key: string, value: unknown): unknown =>
  typeof value === 'string' ? foldCase(value) : value;

/**
 * Serialises a resource document with every string value folded by `foldCase` (names stay as
 * they are): the `folded` column that caseIgnore filters and sorts read, so that PostgreSQL
 * compares exactly as the core and the memory store do, whatever the database's locale. Every
 * string is folded, not only the caseIgnore ones, so the copy does not depend on the schemas
 * in force when it was written; caseExact comparisons read the document itself.
 *
 * @example
 * ```ts
 * foldedJson({ name: { givenName: 'ÉMILE' } }); // '{"name":{"givenName":"émile"}}'
 * ```
 */
export function foldedJson(doc: unknown): string {
  return JSON.stringify(doc, foldStrings);
}
