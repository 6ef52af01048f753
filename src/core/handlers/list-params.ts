import { scimErrors } from '../../errors/index.js';
import type { HandlerConfig } from './context.js';

/** The paging and filter parameters of a list request, validated. */
export interface ListParams {
  readonly startIndex: number;
  readonly count: number;
  readonly filter: string | undefined;
}

const INTEGER = /^[+-]?\d+$/;

function integerParam(name: string, raw: string | null): number | undefined {
  if (raw === null) return undefined;
  const text = raw.trim();
  if (!INTEGER.test(text)) throw scimErrors.invalidValue(`"${name}" must be an integer; got "${raw}".`);
  return Number(text);
}

/**
 * Reads `startIndex` (default 1, below 1 read as 1), `count` (default 50, above the maximum
 * lowered to it, negative read as 0) and `filter`.
 *
 * @throws ScimError 400 `invalidValue` for a non-integer `startIndex` or `count`.
 * @see RFC 7644 §3.4.2.4
 */
export function readListParams(params: URLSearchParams, config: HandlerConfig): ListParams {
  const startIndex = integerParam('startIndex', params.get('startIndex'));
  const count = integerParam('count', params.get('count'));
  const filter = params.get('filter');
  return {
    startIndex: startIndex === undefined || startIndex < 1 ? 1 : Math.min(startIndex, Number.MAX_SAFE_INTEGER),
    count: count === undefined ? config.defaultPageSize : Math.max(0, Math.min(count, config.maxPageSize)),
    filter: filter === null || filter.trim() === '' ? undefined : filter,
  };
}
