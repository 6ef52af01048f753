import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../eslint-rules/import-graph.js';

// The schema and message URNs are written once, in schema/urns.ts; every other module
// imports them, so a URN cannot be spelled two ways.
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const URN_LITERAL = /['"`]urn:(?:ietf|scimkit):params:scim:/;

describe('URN constants', () => {
  it('are written only in schema/urns.ts', () => {
    const writers = sourceFiles(SRC)
      .map((path) => ({
        name: relative(SRC, path).split('\\').join('/'),
        // Code only: comments may name a URN.
        code: readFileSync(path, 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/^\s*\/\/.*$/gm, ''),
      }))
      .filter((file) => URN_LITERAL.test(file.code))
      .map((file) => file.name);
    expect(writers).toEqual(['schema/urns.ts']);
  });
});
