import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../../../src/core/http/read-json-body.js';
import { ScimError } from '../../../src/errors/index.js';
import { findBadJson, jsonTextTooDeep, MAX_JSON_DEPTH } from '../../../src/json/client-text.js';
import type { ScimRequest } from '../../../src/core/types.js';

const headers = { 'content-type': 'application/scim+json' };

// What readJsonBody answers for a text: the value, or the error's status and detail.
function outcome(text: string): unknown {
  try {
    return {
      value: readJsonBody(
        { method: 'POST', path: '/', headers, body: text } as ScimRequest,
        1 << 20,
      ),
    };
  } catch (error) {
    if (!(error instanceof ScimError)) throw error;
    return { status: error.status, detail: error.detail };
  }
}

// The plain order the fast path stands in for: blank text, then depth, then syntax, then text.
function plain(text: string): unknown {
  if (text.trim() === '') return { status: 400, detail: 'The request needs a JSON body.' };
  const deep = {
    status: 400,
    detail: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
  };
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) return deep;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      status: 400,
      detail: `The request body is not valid JSON: ${(error as Error).message}`,
    };
  }
  const bad = findBadJson(value, MAX_JSON_DEPTH);
  if (bad === undefined) return { value };
  if (bad.problem === 'depth') return deep;
  return {
    status: 400,
    detail: `"${bad.path || 'value'}" holds U+0000 or an unpaired surrogate, which SCIM text cannot hold.`,
  };
}

describe('readJsonBody', () => {
  it('holds a text body to the limit in UTF-8 bytes, not in characters', () => {
    const read = (text: string) =>
      readJsonBody({ method: 'POST', path: '/', headers, body: text } as ScimRequest, 100);
    const json = (value: string) => JSON.stringify({ value });
    // 'é' is one character and two bytes: with the 12 of the object, 40 are 92 bytes, 50 are 112.
    expect(() => read(json('é'.repeat(40)))).not.toThrow();
    expect(() => read(json('é'.repeat(50)))).toThrow(expect.objectContaining({ status: 413 }));
    expect(() => read(json('a'.repeat(100)))).toThrow(expect.objectContaining({ status: 413 }));
    expect(read(json('a'.repeat(80)))).toEqual({ value: 'a'.repeat(80) });
  });

  it('answers short and long texts as the plain order of checks does (property)', () => {
    const token = fc.constantFrom(
      '[',
      ']',
      '{',
      '}',
      '"a":',
      '1',
      ',',
      ' ',
      '"x"',
      '"\\u0000"',
      '"[{"',
    );
    const text = fc.oneof(
      fc.array(token, { maxLength: 80 }).map((t) => t.join('')),
      fc
        .integer({ min: MAX_JSON_DEPTH - 2, max: MAX_JSON_DEPTH + 2 })
        .chain((n) =>
          fc.constantFrom('[', '{"a":').map((open) => {
            const close = open === '[' ? ']' : '}';
            return { open, close, n };
          }),
        )
        .chain(({ open, close, n }) =>
          fc
            .integer({ min: 0, max: n })
            .map((closed) => open.repeat(n) + '1' + close.repeat(closed)),
        ),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(outcome(t)).toEqual(plain(t));
      }),
    );
  });

  it('refuses a short text nested too deep as too deep, not as malformed', () => {
    const text = '['.repeat(MAX_JSON_DEPTH + 1);
    expect(outcome(text)).toEqual(plain(text));
    expect(outcome(`${'['.repeat(MAX_JSON_DEPTH)}]`.repeat(1))).toEqual(
      plain(`${'['.repeat(MAX_JSON_DEPTH)}]`),
    );
  });
});
