import { foldCase } from './fold-case.js';

/**
 * Returns the key under which a userName is unique in its tenant: the userName NFC-normalised,
 * then Unicode simple case folded (the folding every caseIgnore comparison uses). Every store indexes userNames by this key
 * and answers `userName eq` by it, so `Émile@x` and `émile@x` are one identity on every store;
 * the stored userName stays exactly as the client sent it. A custom store calls this function
 * rather than folding on its own (for example with SQL `lower()`, which depends on the
 * database's locale); the store conformance suite checks that it does.
 *
 * @example
 * ```ts
 * import { userNameKey } from 'scimkit';
 *
 * userNameKey('Ünal@X.org') === userNameKey('ünal@x.org'); // true
 * ```
 */
export function userNameKey(userName: string): string {
  return foldCase(userName);
}
