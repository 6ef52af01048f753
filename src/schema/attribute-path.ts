// The one attribute-path grammar: `[URN ":"] ATTRNAME ["." ATTRNAME]` (RFC 7644 §3.10) and the
// attribute-name rule it is made of. The filter parser, the PATCH path parser, `sortBy`,
// `attributes` / `excludedAttributes` and the extension-name check all read names here.

/**
 * An attribute path: an optional schema URN, an attribute name and an optional sub-attribute.
 * Names keep the letter case the client sent; matching is case-insensitive.
 *
 * @see RFC 7644 §3.10
 */
export interface AttributePath {
  /** The schema URN when the client qualified the name, e.g. the Enterprise User URN. */
  readonly schema?: string;
  /** The attribute name, as the client wrote it. */
  readonly attribute: string;
  /** The sub-attribute name after the dot, when there is one (`name.givenName`). */
  readonly subAttribute?: string;
}

/**
 * Tells whether a UTF-16 code unit may start an attribute name: an ASCII letter, or `$` (for
 * `$ref`). RFC 7644's ATTRNAME is `ALPHA *(nameChar)`; `$ref` is the one name RFC 7643 adds.
 */
export function isNameStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x24;
}

/** Tells whether a UTF-16 code unit may continue an attribute name: `nameChar` (`-`, `_`, digits, letters) or `$`. */
export function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;
}

// The two predicates above as one table, since parsers ask for each character of a path.
const START = 2;
const CONTINUE = 1;
const NAME_TABLE = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  NAME_TABLE[c] = (isNameStart(c) ? START : 0) | (isNameChar(c) ? CONTINUE : 0);
}

/** Returns the index just past the attribute name that starts at `start`; `start` when none does. */
export function nameEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  // `NaN` (past the end) fails `< 128`; the table answers for ASCII.
  if (!(first < 128 && (NAME_TABLE[first] as number) & START)) return start;
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (!(c < 128 && (NAME_TABLE[c] as number) & CONTINUE)) return i;
    i++;
  }
}

/** Tells whether `text` is an attribute name (the whole text). */
export function isAttributeName(text: string): boolean {
  return text.length > 0 && nameEnd(text, 0) === text.length;
}

/** Refuses a path: why, and the index in the text where it went wrong. Never returns. */
export type PathFailure = (why: string, at: number) => never;

/**
 * Reads the attribute path `text[start, end)`: `name`, `name.sub`, each optionally behind a
 * schema URN, the URN being everything up to the last colon (URNs hold colons and dots:
 * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`). The caller
 * decides where the path ends (a filter at a delimiter, a PATCH path at `[`) and how a refusal
 * reads, through `fail`.
 *
 * @see RFC 7644 §3.10
 */
export function readAttributePath(
  text: string,
  start: number,
  end: number,
  fail: PathFailure,
): AttributePath {
  // The common case, a name with no URN, in one pass.
  let at = nameEnd(text, start);
  if (at > start) {
    const attribute = text.slice(start, at);
    if (at === end) return { attribute };
    if (text.charCodeAt(at) === 0x2e /* . */) {
      const sub = nameEnd(text, at + 1);
      if (sub === end && sub > at + 1) return { attribute, subAttribute: text.slice(at + 1, sub) };
    }
  }
  if (end <= start) return fail('expected an attribute name', start);
  let lastColon = -1;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === 0x3a /* : */) lastColon = i;
  let schema: string | undefined;
  at = start;
  if (lastColon >= 0) {
    if (lastColon === start) return fail('expected a schema URN before ":"', start);
    for (let i = start; i < lastColon; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x21 || c > 0x7e || (i === start && (!isNameStart(c) || c === 0x24))) {
        return fail('invalid character in schema URN', i);
      }
    }
    schema = text.slice(start, lastColon);
    at = lastColon + 1;
  }
  const nameStop = nameEnd(text, at);
  if (nameStop === at) return fail('expected an attribute name', at);
  const attribute = text.slice(at, nameStop);
  at = nameStop;
  let subAttribute: string | undefined;
  if (text.charCodeAt(at) === 0x2e /* . */ && at < end) {
    const subStop = nameEnd(text, at + 1);
    if (subStop === at + 1 || subStop > end) return fail('expected a sub-attribute name', at + 1);
    subAttribute = text.slice(at + 1, subStop);
    at = subStop;
  }
  if (at !== end) return fail('invalid character in attribute path', at);
  if (schema === undefined) {
    return subAttribute === undefined ? { attribute } : { attribute, subAttribute };
  }
  return subAttribute === undefined ? { schema, attribute } : { schema, attribute, subAttribute };
}

// Thrown by `unparsed` and caught by `parseAttributePath` only: never leaves this module.
const UNPARSED = Symbol('unparsed');
function unparsed(): never {
  throw UNPARSED;
}

/**
 * Reads a whole text as an attribute path (`sortBy`, an `attributes` entry), or returns
 * `undefined` when it is not one.
 */
export function parseAttributePath(text: string): AttributePath | undefined {
  try {
    return readAttributePath(text, 0, text.length, unparsed);
  } catch (error) {
    if (error === UNPARSED) return undefined;
    throw error;
  }
}
