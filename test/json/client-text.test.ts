import { describe, expect, it } from 'vitest';
import {
  findBadJson,
  isClientText,
  jsonTextTooDeep,
  MAX_JSON_DEPTH,
} from '../../src/json/client-text.js';
import { previewJson } from '../../src/json/preview-json.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/**
 * A text that counts the characters `jsonTextTooDeep` examines: the string methods it uses,
 * each charging what the engine's own search would read. The function takes a string; this
 * stands in for one to make its work countable without a clock.
 */
function countingText(text: string): { value: string; read: () => number } {
  let read = 0;
  const value = {
    length: text.length,
    indexOf(search: string, from = 0) {
      const at = text.indexOf(search, from);
      read += (at < 0 ? text.length : at + search.length) - from;
      return at;
    },
    charCodeAt(i: number) {
      read++;
      return text.charCodeAt(i);
    },
  };
  return { value: value as unknown as string, read: () => read };
}

describe('isClientText', () => {
  it('refuses U+0000 and lone surrogates, and keeps every other character', () => {
    expect(isClientText('a\u0000b')).toBe(false);
    expect(isClientText('\uD800')).toBe(false);
    expect(isClientText('x\uDC00')).toBe(false);
    expect(isClientText('\uDE00\uD83D')).toBe(false); // a pair in the wrong order
    expect(isClientText('\u{1F600} Émile ß \u0001 \t \u007F \uFFFF')).toBe(true);
    expect(isClientText('')).toBe(true);
  });
});

describe('jsonTextTooDeep', () => {
  it('counts arrays and objects up to the limit, and one more is too deep', () => {
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonTextTooDeep(`${'{"a":'.repeat(3)}1}}}`, 3)).toBe(false);
    expect(jsonTextTooDeep(`${'{"a":['.repeat(2)}1]}]}`, 3)).toBe(true);
    // Fewer brackets than the limit, wherever they are, cannot nest deeper than it.
    expect(jsonTextTooDeep('{"a":[1,{"b":"[["}]}', 5)).toBe(false);
    expect(jsonTextTooDeep('[{"a":[1,{"b":[]}]}]', 5)).toBe(false);
    expect(jsonTextTooDeep('[{"a":[1,{"b":[[]]}]}]', 5)).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(jsonTextTooDeep('{"[[[[": "{{{{"}', 1)).toBe(false);
    expect(jsonTextTooDeep('["a\\"[[[["]', 1)).toBe(false);
    expect(jsonTextTooDeep('["a\\\\", [[1]]]', 2)).toBe(true); // the backslash is escaped
    expect(jsonTextTooDeep('["unterminated [[[', 1)).toBe(false);
  });

  // Counted, not timed: a body is refused before parsing because absurd nesting costs the parser
  // far more than its size says, so the check itself must stay linear in the text's length.
  it('reads each character of a 1 MiB body a bounded number of times, whatever it holds', () => {
    const MiB = 1024 * 1024;
    const bodies: [string, boolean][] = [
      [nested(MiB / 2), true],
      [`[${'[1],'.repeat(MiB / 4)}1]`, false],
      [`[${'"[{\\\\\\"[",'.repeat(MiB / 16)}1]`, false],
      [`${'{"a":'.repeat(MAX_JSON_DEPTH)}${'"\\"['.repeat(MiB / 8)}`, false],
    ];
    for (const [body, deep] of bodies) {
      const text = countingText(body);
      expect(jsonTextTooDeep(text.value, MAX_JSON_DEPTH)).toBe(deep);
      expect(text.read()).toBeLessThanOrEqual(4 * body.length);
    }
  });
});

describe('findBadJson', () => {
  it('names the first key or string that is not client text', () => {
    expect(findBadJson({ emails: [{ value: 'a' }, { value: 'b\u0000' }] }, 64)).toEqual({
      problem: 'text',
      path: 'emails[1].value',
    });
    expect(findBadJson({ name: { ['giv\uD800']: 'x' } }, 64)).toEqual({
      problem: 'text',
      path: 'name.giv\\ud800',
    });
    expect(findBadJson(['ok', 7, null, true, { a: 'ok' }], 64)).toBeUndefined();
  });

  it('refuses nesting deeper than the limit, counting the value itself as level 1', () => {
    expect(findBadJson(JSON.parse(nested(64)), 64)).toBeUndefined();
    expect(findBadJson(JSON.parse(nested(65)), 64)?.problem).toBe('depth');
    expect(findBadJson({ a: { b: 1 } }, 2)).toBeUndefined();
    expect(findBadJson({ a: { b: {} } }, 2)).toEqual({ problem: 'depth', path: 'a.b' });
  });

  it('ends on a cyclic value a host could pass', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(findBadJson(cyclic, 64)?.problem).toBe('depth');
  });

  it('sees an own "__proto__" key and skips inherited ones', () => {
    const body = JSON.parse('{"__proto__": {"x": "\\u0000"}}') as object;
    expect(findBadJson(body, 64)).toEqual({ problem: 'text', path: '__proto__.x' });
    expect(findBadJson(Object.create({ inherited: '\u0000' }), 64)).toBeUndefined();
  });
});

describe('previewJson', () => {
  it('writes small values whole and cuts long ones at the limit', () => {
    expect(previewJson({ a: [1, 'x', null] })).toBe('{"a":[1,"x",null]}');
    expect(previewJson('x'.repeat(500))).toBe(`"${'x'.repeat(99)}…`);
    expect(previewJson(10n)).toBe('10');
    expect(previewJson(undefined)).toBe('undefined');
  });

  it('stops early on a huge or deep value instead of writing it all', () => {
    const deep = JSON.parse(nested(10_000)) as unknown;
    expect(previewJson(deep)).toBe(`${'['.repeat(100)}…`);
    // Counted, not timed: the elements read, through a proxy of a million-element array.
    let read = 0;
    const wide = new Proxy(
      Array.from({ length: 1_000_000 }, () => 'abc'),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) read++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    expect(previewJson(wide, 20)).toBe('["abc","abc","abc","…');
    expect(read).toBeLessThanOrEqual(5);
    const long = { [`k${'x'.repeat(1_000_000)}`]: 'y'.repeat(1_000_000) };
    expect(previewJson(long, 20)).toBe(`{"k${'x'.repeat(17)}…`);
  });
});
