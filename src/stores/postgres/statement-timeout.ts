import { ScimConfigError, scimErrors, type ScimError } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';

/** The SQLSTATE of a statement the server cancelled (`statement_timeout`, or an operator). */
const QUERY_CANCELED = '57014';

/** Seconds a client is asked to wait before retrying a request whose statement was cancelled. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Writes a statement timeout as the value of `SET statement_timeout` (`DEFAULT`: the server's
 * own setting). Only a non-negative safe integer reaches SQL text.
 *
 * @throws TypeError for anything else.
 */
export function timeoutSetting(ms: number | undefined): string {
  if (ms === undefined) return 'DEFAULT';
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new TypeError(`statementTimeoutMs must be a non-negative integer, got ${String(ms)}.`);
  }
  return String(ms);
}

/**
 * Turns a statement the server cancelled into the 503 the client may retry (with
 * `Retry-After`); any other error is returned as it is. The cancelled statement's
 * transaction was rolled back, so the request changed nothing.
 */
export function toTimeoutError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  if ((error as { code?: unknown }).code !== QUERY_CANCELED) return error;
  const refused: ScimError = scimErrors.serviceUnavailable(
    'The directory took too long to answer and the request was cancelled; nothing was ' +
      'changed. Retry later, or narrow the filter if it searches many resources.',
    RETRY_AFTER_SECONDS,
  );
  return refused;
}

/** The statement timeout of the PostgreSQL stores when the host sets none. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;

/**
 * Reads a store's `statementTimeoutMs` option: the default when absent, `undefined` (leave the
 * server's own setting) for `0`.
 *
 * @throws ScimConfigError for a value that is not a non-negative integer.
 */
export function storeStatementTimeout(option: unknown, store: string): number | undefined {
  if (option === undefined) return DEFAULT_STATEMENT_TIMEOUT_MS;
  if (typeof option !== 'number' || !Number.isSafeInteger(option) || option < 0) {
    throw new ScimConfigError(
      `${store}: statementTimeoutMs ${previewJson(option)} must be a whole number of ` +
        "milliseconds (0 leaves the server's own statement_timeout).",
    );
  }
  return option === 0 ? undefined : option;
}
