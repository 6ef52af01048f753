import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedUtf8Length, utf8Length } from '../../src/json/utf8-length.js';

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it('counts what TextEncoder writes, lone surrogates included', () => {
    for (const text of [
      '',
      'ascii',
      'Émile',
      '日本',
      '😀',
      '\ud800',
      'a\udc00b',
      '\ud83d\ude00\ud83d',
    ])
      expect(utf8Length(text)).toBe(encoded(text));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => utf8Length(text) === encoded(text)),
    );
  });

  it('is exact whenever the text may exceed the room', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(64), (text, room) => {
        const bytes = boundedUtf8Length(text, room);
        return bytes <= room ? encoded(text) <= room : bytes === encoded(text);
      }),
    );
  });
});
