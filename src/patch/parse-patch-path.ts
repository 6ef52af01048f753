import { scimErrors, isScimError } from '../errors/index.js';
import { parseFilter } from '../filter/index.js';
import type { Filter } from '../filter/ast.js';
import type { PatchPath } from './types.js';
import { previewJson } from '../json/preview-json.js';

const NAME = /^[A-Za-z$][\w$-]*/;

/**
 * Parses a PATCH `path`: `attrPath` (`active`, `name.givenName`), `valuePath [subAttr]`
 * (`emails[type eq "work"].value`), each optionally prefixed by a schema URN
 * (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`). The bracket
 * content is handed to the shared filter parser.
 *
 * @throws ScimError 400 `invalidPath` when the text is not a path.
 * @see RFC 7644 §3.5.2 (Figure 7), §3.10
 * @example
 * ```ts
 * parsePatchPath('emails[type eq "work"].value');
 * // { attribute: 'emails', filter: {...}, subAttribute: 'value' }
 * ```
 */
export function parsePatchPath(text: string): PatchPath {
  let rest = text.trim();
  let schema: string | undefined;
  if (rest.slice(0, 4).toLowerCase() === 'urn:') {
    const bracket = rest.indexOf('[');
    const head = bracket < 0 ? rest : rest.slice(0, bracket);
    const colon = head.lastIndexOf(':');
    schema = rest.slice(0, colon);
    rest = rest.slice(colon + 1);
  }
  const name = NAME.exec(rest);
  if (!name) throw badPath(text, 'does not start with an attribute name');
  const attribute = name[0];
  rest = rest.slice(attribute.length);
  let filter: Filter | undefined;
  if (rest.startsWith('[')) {
    const close = closingBracket(rest);
    if (close < 0) throw badPath(text, 'has an unclosed "["');
    filter = parseValueFilter(rest.slice(1, close), text);
    rest = rest.slice(close + 1);
  }
  let subAttribute: string | undefined;
  if (rest.startsWith('.')) {
    const sub = NAME.exec(rest.slice(1));
    if (!sub) throw badPath(text, 'has no sub-attribute name after "."');
    subAttribute = sub[0];
    rest = rest.slice(1 + subAttribute.length);
  }
  if (rest.length > 0) throw badPath(text, `has unexpected text ${previewJson(rest)}`);
  return {
    ...(schema === undefined ? {} : { schema }),
    attribute,
    ...(subAttribute === undefined ? {} : { subAttribute }),
    ...(filter === undefined ? {} : { filter }),
  };
}

// A module-level function, not a closure per call: PATCH parses a path per operation.
function badPath(text: string, why: string) {
  return scimErrors.invalidPath(`The path ${previewJson(text)} ${why}.`);
}

/** Finds the `]` that closes the `[` at index 0, skipping brackets inside quoted strings. */
function closingBracket(text: string): number {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
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

function parseValueFilter(inner: string, path: string): Filter {
  if (inner.trim() === '')
    throw scimErrors.invalidPath(`The path ${previewJson(path)} has an empty filter.`);
  try {
    return parseFilter(inner);
  } catch (error) {
    // A bad value filter is a bad path (RFC 7644 §3.5.2 names invalidPath for PATCH paths).
    const why = isScimError(error) ? error.detail : 'its filter does not parse';
    throw scimErrors.invalidPath(`The path ${previewJson(path)} is not valid: ${why}`);
  }
}
