import { isJsonObject } from './json-value.js';

/**
 * The deepest nesting of arrays and objects scimkit reads in a request body. A SCIM body needs
 * about six levels (a PATCH value holding a multi-valued attribute); anything far deeper is an
 * attack on the parser or on the code that walks the value.
 */
export const MAX_JSON_DEPTH = 64;

// With the `u` flag a surrogate range matches only a surrogate that is not half of a pair.
const NOT_CLIENT_TEXT = /[\0\uD800-\uDFFF]/u;

/**
 * Tells whether a string is text a client may send: no U+0000 (PostgreSQL `text` and `jsonb`
 * cannot hold it) and no lone surrogate (not a Unicode string, so not valid UTF-8 either).
 * Other control characters are allowed here, as JSON allows them escaped; a rule of its own
 * (userName) may refuse more.
 */
export function isClientText(text: string): boolean {
  return !NOT_CLIENT_TEXT.test(text);
}

/**
 * Tells whether JSON text nests arrays and objects deeper than `maxDepth`, without parsing it,
 * so that `JSON.parse` never spends its time on absurd nesting (500,000 levels fit in 1 MiB and
 * take 0.3 s to parse). Brackets inside strings are skipped; the text need not be valid JSON
 * (the parser reports that).
 */
export function jsonTextTooDeep(text: string, maxDepth: number): boolean {
  // Usual bodies hold fewer brackets than the limit: counting them with the engine's own search
  // costs a quarter of the scan below, and is enough.
  let openers = 0;
  for (const opener of ['{', '[']) {
    for (let i = text.indexOf(opener); i >= 0; i = text.indexOf(opener, i + 1)) {
      if (++openers > maxDepth) return nestsDeeper(text, maxDepth);
    }
  }
  return false;
}

function nestsDeeper(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return false;
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c /* \ */) k--;
        if ((i - k) % 2 === 1) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** What {@link findBadJson} found, and where: a path such as `emails[0].value`. */
export interface BadJson {
  readonly problem: 'depth' | 'text';
  readonly path: string;
}

/**
 * Finds the first place in a parsed JSON value (or one a host's body parser produced) that a
 * client may not send: nesting deeper than `maxDepth` (the value itself is level 1), or a key
 * or string that is not {@link isClientText}. Stops at `maxDepth`, so a cyclic value ends too.
 */
export function findBadJson(value: unknown, maxDepth: number): BadJson | undefined {
  const path: (string | number)[] = [];
  const problem = walk(value, 1, maxDepth, path);
  return problem && { problem, path: formatPath(path) };
}

// Recursion is bounded by maxDepth; `path` is filled on the way out of a failure only.
function walk(
  value: unknown,
  depth: number,
  maxDepth: number,
  path: (string | number)[],
): BadJson['problem'] | undefined {
  if (typeof value === 'string') return isClientText(value) ? undefined : 'text';
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > maxDepth) return 'depth';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = walk(value[i], depth + 1, maxDepth, path);
      if (problem) return (path.unshift(i), problem);
    }
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const problem = isClientText(key) ? walk(value[key], depth + 1, maxDepth, path) : 'text';
    if (problem) return (path.unshift(key), problem);
  }
  return undefined;
}

function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else {
      const shown = JSON.stringify(key.slice(0, 100)).slice(1, -1);
      out += out === '' ? shown : `.${shown}`;
    }
  }
  return out;
}
