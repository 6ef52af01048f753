import { scimErrors } from '../../errors/index.js';
import { findBadJson, jsonTextTooDeep, MAX_JSON_DEPTH } from '../../json/client-text.js';
import type { ScimRequest } from '../types.js';
import { checkBodyMediaType } from './declared-body.js';
import { boundedUtf8Length } from '../../json/utf8-length.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a request's JSON body: checks the media type and the size limit, and parses text or
 * bytes. A value a host's own body parser produced is taken as it is. Either way the value is
 * then held to what a client may send (`src/json/client-text.ts`).
 *
 * @throws ScimError 415, 413, or 400 `invalidSyntax` for a missing, malformed or too deeply
 *   nested body, 400 `invalidValue` for U+0000 or a lone surrogate in a key or string.
 */
export function readJsonBody(request: ScimRequest, maxBytes: number): unknown {
  checkBodyMediaType(request.headers);
  const body = request.body;
  let text: string;
  if (typeof body === 'string') {
    if (boundedUtf8Length(body, maxBytes) > maxBytes) throw scimErrors.payloadTooLarge(maxBytes);
    text = body;
  } else if (body instanceof Uint8Array) {
    if (body.byteLength > maxBytes) throw scimErrors.payloadTooLarge(maxBytes);
    try {
      text = decoder.decode(body);
    } catch {
      throw scimErrors.invalidSyntax('The request body is not valid UTF-8.');
    }
  } else if (body === undefined || body === null) {
    text = '';
  } else {
    return checkClientJson(body);
  }
  // Some clients (and Windows tooling) start the body with a UTF-8 byte-order mark.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw scimErrors.invalidSyntax('The request needs a JSON body.');
  // Refused before parsing: absurd nesting costs JSON.parse far more time than its size says.
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'malformed JSON';
    throw scimErrors.invalidSyntax(`The request body is not valid JSON: ${reason}`);
  }
  return checkClientJson(value);
}

// Holds a body to what a client may send: at most MAX_JSON_DEPTH levels, and no U+0000 or lone
// surrogate in any key or string (no store could keep them), at the one place bodies enter.
function checkClientJson(value: unknown): unknown {
  const bad = findBadJson(value, MAX_JSON_DEPTH);
  if (bad === undefined) return value;
  if (bad.problem === 'depth') throw tooDeep();
  throw scimErrors.invalidValue(
    `"${bad.path || 'value'}" holds U+0000 or an unpaired surrogate, which SCIM text cannot hold.`,
  );
}

function tooDeep() {
  return scimErrors.invalidSyntax(
    `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
  );
}
