import { scimErrors } from '../../errors/index.js';
import type { TableNames } from './table-names.js';

/** The SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Turns a unique violation on the users table into the 409 the contract asks for; any other
 * error is returned as it is. The index decides, not a prior read, so two processes racing
 * for one userName still get exactly one success.
 */
export function toStoreError(error: unknown, tables: TableNames, userName: string): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code !== UNIQUE_VIOLATION) return error;
  if (constraint === `${tables.prefix}users_user_name_key`) {
    return scimErrors.uniqueness(`userName "${userName}" is already taken.`);
  }
  if (constraint === `${tables.prefix}users_pkey`) {
    return scimErrors.uniqueness('A user with this id already exists.');
  }
  return error;
}
