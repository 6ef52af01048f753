import type { SortOrder } from '../../contracts/user-store.js';
import { scimErrors } from '../../errors/index.js';
import { splitAttributeList } from '../../schema/project-resource.js';
import type { HandlerConfig } from './context.js';
import { previewJson } from '../../json/preview-json.js';
import { SEARCH_REQUEST_SCHEMA } from '../../schema/urns.js';

/** The parameters of a list or search request, validated. */
export interface ListParams {
  readonly startIndex: number;
  readonly count: number;
  readonly filter: string | undefined;
  readonly sortBy: string | undefined;
  readonly sortOrder: SortOrder;
  readonly attributes: readonly string[];
  readonly excludedAttributes: readonly string[];
  /** The RFC 9865 `cursor`: `''` for the first page, absent for index paging. */
  readonly cursor: string | undefined;
  /** Whether `startIndex` was sent (index paging asked for explicitly). */
  readonly startIndexGiven: boolean;
  /** The `count` as sent, before it is bounded; absent when not sent. */
  readonly countGiven: number | undefined;
}

const INTEGER = /^[+-]?\d+$/;

function integerParam(name: string, raw: unknown): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!INTEGER.test(text))
    throw scimErrors.invalidValue(`"${name}" must be an integer; got ${previewJson(raw)}.`);
  return Number(text);
}

function sortOrderParam(raw: unknown): SortOrder {
  if (raw === null || raw === undefined) return 'ascending';
  if (typeof raw === 'string') {
    const lower = raw.trim().toLowerCase();
    if (lower === 'ascending' || lower === 'descending') return lower;
  }
  throw scimErrors.invalidValue(
    `"sortOrder" must be "ascending" or "descending"; got ${previewJson(raw)}.`,
  );
}

function optionalText(name: string, raw: unknown): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw !== 'string') throw scimErrors.invalidValue(`"${name}" must be a string.`);
  return raw.trim() === '' ? undefined : raw;
}

function cursorParam(raw: unknown): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw !== 'string') throw scimErrors.invalidCursor('"cursor" must be a string.');
  return raw.trim();
}

// No attributes named: one frozen list, shared, rather than two new ones per request.
const NO_ATTRIBUTES: readonly string[] = Object.freeze([]);

function attributeList(name: string, raw: unknown): readonly string[] {
  if (raw === null || raw === undefined) return NO_ATTRIBUTES;
  if (typeof raw === 'string') return splitAttributeList(raw);
  if (Array.isArray(raw) && raw.every((s) => typeof s === 'string'))
    return raw.flatMap((s: string) => splitAttributeList(s));
  throw scimErrors.invalidValue(`"${name}" must be a list of attribute names.`);
}

// Where the parameters are read from: the query's URLSearchParams itself, or a search body.
interface ParamSource {
  get(name: string): unknown;
}

function toListParams(source: ParamSource, config: HandlerConfig): ListParams {
  const startIndex = integerParam('startIndex', source.get('startIndex'));
  const count = integerParam('count', source.get('count'));
  return {
    startIndex:
      startIndex === undefined || startIndex < 1
        ? 1
        : Math.min(startIndex, Number.MAX_SAFE_INTEGER),
    count:
      count === undefined
        ? config.defaultPageSize
        : Math.max(0, Math.min(count, config.maxPageSize)),
    filter: optionalText('filter', source.get('filter')),
    sortBy: optionalText('sortBy', source.get('sortBy')),
    sortOrder: sortOrderParam(source.get('sortOrder')),
    attributes: attributeList('attributes', source.get('attributes')),
    excludedAttributes: attributeList('excludedAttributes', source.get('excludedAttributes')),
    cursor: cursorParam(source.get('cursor')),
    startIndexGiven: startIndex !== undefined,
    countGiven: count,
  };
}

/**
 * Reads the query parameters of a list (GET /Users, GET /Groups): `startIndex` (default 1, below 1 read as 1),
 * `count` (default 50, above the maximum lowered to it, negative read as 0), `filter`,
 * `sortBy`, `sortOrder`, `attributes`, `excludedAttributes`, and the RFC 9865 `cursor`
 * (present and empty, `?cursor`, for the first page).
 *
 * @throws ScimError 400 `invalidValue` for a non-integer `startIndex` or `count` or a bad `sortOrder`.
 * @see RFC 7644 §3.4.2
 */
export function readListParams(params: URLSearchParams, config: HandlerConfig): ListParams {
  return toListParams(params, config);
}

/**
 * Reads a POST .search SearchRequest body into the same parameters as the GET form.
 *
 * @throws ScimError 400 `invalidSyntax` for a body that is not a SearchRequest.
 * @see RFC 7644 §3.4.3
 */
export function readSearchRequest(body: unknown, config: HandlerConfig): ListParams {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw scimErrors.invalidSyntax('A SearchRequest body must be a JSON object.');
  }
  const request = body as Record<string, unknown>;
  const schemas = request.schemas;
  if (
    !Array.isArray(schemas) ||
    !schemas.some(
      (s) => typeof s === 'string' && s.toLowerCase() === SEARCH_REQUEST_SCHEMA.toLowerCase(),
    )
  ) {
    throw scimErrors.invalidSyntax(`"schemas" must contain "${SEARCH_REQUEST_SCHEMA}".`);
  }
  const lower = new Map(Object.keys(request).map((k) => [k.toLowerCase(), request[k]]));
  return toListParams({ get: (name) => lower.get(name.toLowerCase()) }, config);
}
