import { scimErrors } from '../errors/index.js';

/**
 * The longest text a store may key on, in characters (UTF-16 code units, as JavaScript counts
 * them): a `userName`, an `externalId`, a Group's `displayName`. The PostgreSQL store indexes
 * each (with the tenant) in a btree, whose entries hold at most about 2,700 bytes: 900 random
 * CJK characters (3 bytes each in UTF-8) already fail there, 512 of them take 1,536 bytes.
 * Checked by the core, so every store gives the same answer.
 */
export const MAX_KEY_TEXT_LENGTH = 512;

/**
 * Checks the attributes a store keys on (`names`, top-level string attributes) of a resource
 * about to be written: none may be longer than {@link MAX_KEY_TEXT_LENGTH}. A value kept as
 * `current` holds it is not checked again, so a stored value longer than the limit does not
 * lock its resource out of every other change.
 *
 * @throws ScimError 400 `invalidValue` naming the attribute, the limit and the length sent.
 */
export function checkKeyText(
  attributes: Readonly<Record<string, unknown>>,
  names: readonly string[],
  current?: Readonly<Record<string, unknown>>,
): void {
  for (const name of names) {
    const value = attributes[name];
    if (typeof value !== 'string' || value.length <= MAX_KEY_TEXT_LENGTH) continue;
    if (current !== undefined && current[name] === value) continue;
    throw scimErrors.invalidValue(
      `"${name}" must be at most ${MAX_KEY_TEXT_LENGTH} characters; got ${value.length}.`,
    );
  }
}
