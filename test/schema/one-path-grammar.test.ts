import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One attribute-name rule and one attribute-path reader. This test fails when a second
// copy of the name rule appears in src/, or when a parser stops using the shared reader.
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const HOME = 'schema/attribute-path.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => ({
  name: relative(SRC, path).split('\\').join('/'),
  text: readFileSync(path, 'utf8'),
}));

// A regular expression of name characters: `[A-Za-z$]`, `[\w$-]`, `[A-Za-z][A-Za-z0-9_-]`...
const NAME_REGEX = /\/\^?\[A-Za-z\$?\]|\[\\w\$-\]|\[\\w-\$\]/;

describe('the attribute-name rule and the path grammar', () => {
  it('are written once, in schema/attribute-path.ts', () => {
    const copies = files
      .filter((f) => f.name !== HOME && NAME_REGEX.test(f.text))
      .map((f) => f.name);
    expect(copies).toEqual([]);
    const definers = files
      .filter((f) => /function (isNameStart|isNameChar|nameEnd|readAttributePath)\b/.test(f.text))
      .map((f) => f.name);
    expect(definers).toEqual([HOME]);
  });

  it('are what the filter, PATCH, sortBy, projection and extension parsers read names with', () => {
    for (const user of [
      'filter/parse-filter.ts',
      'filter/char-class.ts',
      'patch/parse-patch-path.ts',
      'core/handlers/sort-by.ts',
      'schema/project-resource.ts',
      'core/check-extensions.ts',
    ]) {
      const text = files.find((f) => f.name === user)?.text ?? '';
      expect(text, user).toMatch(/from '(\.\.\/)*(schema\/|\.\/)attribute-path\.js'/);
    }
  });

  it('leaves no module-level cache of schema knowledge: the compiled resource type holds it', () => {
    const caches = files
      .filter((f) => /^(?:const|let) \w+ = new WeakMap/m.test(f.text))
      .map((f) => f.name);
    expect(caches).toEqual([]);
  });
});
