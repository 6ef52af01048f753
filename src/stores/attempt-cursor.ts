import { scimErrors } from '../errors/index.js';

/**
 * Returns the attempt sequence number a delivery-attempt listing cursor names: the cursors of
 * the bundled subscription stores are those numbers, in decimal.
 *
 * @throws ScimError 400 `invalidCursor` for a cursor that is not one a listing gave.
 * @internal
 */
export function attemptSeq(cursor: string): string {
  if (!/^[1-9]\d{0,17}$/.test(cursor))
    throw scimErrors.invalidCursor(`"${cursor.slice(0, 40)}" is not a delivery attempt cursor.`);
  return cursor;
}
