import { scimErrors, isScimError } from '../errors/index.js';
import { parseFilter, type ParseFilterOptions } from '../filter/index.js';
import type { Filter } from '../filter/ast.js';
import type { DialectRules } from '../schema/dialect-rules.js';
import type { PatchPath } from './types.js';
import { previewJson } from '../json/preview-json.js';
import { nameEnd, readAttributePath, type PathFailure } from '../schema/attribute-path.js';

/**
 * Parses a PATCH `path`: `attrPath` (`active`, `name.givenName`), `valuePath [subAttr]`
 * (`emails[type eq "work"].value`), each optionally prefixed by a schema URN
 * (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`). The attribute
 * path is read with the one path grammar (`readAttributePath`), the bracket content by the
 * shared filter parser, with `options.unquotedValues` as a `?filter=` is read: values without
 * quotes (`emails[type eq work]`) are strings, the dialect rule `unquotedFilterValues` (PATCH
 * passes the resource type's setting). Default `false` (RFC 7644). `options.onBareValue` hears
 * each value read without quotes.
 *
 * @throws ScimError 400 `invalidPath` when the text is not a path.
 * @see RFC 7644 §3.5.2 (Figure 7), §3.10
 * @example
 * ```ts
 * parsePatchPath('emails[type eq "work"].value');
 * // { attribute: 'emails', filter: {...}, subAttribute: 'value' }
 * parsePatchPath('members[value eq 2819c223]', { unquotedValues: true });
 * ```
 */
export function parsePatchPath(text: string, options?: PathOptions): PatchPath {
  const rest = text.trim();
  const bracket = rest.indexOf('[');
  const fail: PathFailure = (why, at) => {
    throw badPath(text, `is not valid: ${why} at character ${at + 1}`);
  };
  if (bracket < 0) return readAttributePath(rest, 0, rest.length, fail);
  const path = readAttributePath(rest, 0, bracket, fail);
  if (path.subAttribute !== undefined) fail('a value filter must follow an attribute', bracket);
  const close = closingBracket(rest, bracket);
  if (close < 0) throw badPath(text, 'has an unclosed "["');
  const filter = parseValueFilter(rest.slice(bracket + 1, close), text, options);
  let at = close + 1;
  let subAttribute: string | undefined;
  if (rest.charCodeAt(at) === 0x2e /* . */) {
    const end = nameEnd(rest, at + 1);
    if (end === at + 1) throw badPath(text, 'has no sub-attribute name after "."');
    subAttribute = rest.slice(at + 1, end);
    at = end;
  }
  if (at < rest.length) throw badPath(text, `has unexpected text ${previewJson(rest.slice(at))}`);
  return subAttribute === undefined ? { ...path, filter } : { ...path, subAttribute, filter };
}

/** How {@link parsePatchPath} reads the values of a value filter (see `ParseFilterOptions`). */
export type PathOptions = Pick<ParseFilterOptions, 'unquotedValues' | 'onBareValue'>;

const UNQUOTED: ParseFilterOptions = { unquotedValues: true };

/**
 * Returns the options a resource type's dialect rules give the PATCH paths it parses: values
 * without quotes with `unquotedFilterValues`, as its `?filter=` reads them.
 *
 * @internal
 */
export function pathOptionsOf(
  rules: Pick<DialectRules, 'unquotedFilterValues'>,
): Pick<ParseFilterOptions, 'unquotedValues'> | undefined {
  return rules.unquotedFilterValues ? UNQUOTED : undefined;
}

// A module-level function, not a closure per call: PATCH parses a path per operation.
function badPath(text: string, why: string) {
  return scimErrors.invalidPath(`The path ${previewJson(text)} ${why}.`);
}

/** Finds the `]` that closes the `[` at `open`, skipping brackets inside quoted strings. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

function parseValueFilter(inner: string, path: string, options: PathOptions | undefined): Filter {
  if (inner.trim() === '')
    throw scimErrors.invalidPath(`The path ${previewJson(path)} has an empty filter.`);
  try {
    return parseFilter(inner, options);
  } catch (error) {
    // A bad value filter is a bad path (RFC 7644 §3.5.2 names invalidPath for PATCH paths).
    const why = isScimError(error) ? error.detail : 'its filter does not parse';
    throw scimErrors.invalidPath(`The path ${previewJson(path)} is not valid: ${why}`);
  }
}
