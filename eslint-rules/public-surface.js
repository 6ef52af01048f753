// @ts-check
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const EXPORT_FROM = /export\s+(?:type\s+)?(\{[^}]*\}|\*)\s*from\s*'([^']+)'/g;
const EXPORT_LIST = /export\s+(?:type\s+)?\{([^}]*)\}/g;
const EXPORT_DECLARATION =
  /export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|const|let|enum)\s+(\w+)/g;

/**
 * Reads the `{ a, b as c }` of an export clause as `[local, exported]` pairs.
 *
 * @param {string} clause
 * @returns {[string, string][]}
 */
function specifiers(clause) {
  return clause
    .replace(/[{}]/g, '')
    .split(',')
    .map((s) => s.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((s) => {
      const [local = s, exported = local] = s.split(/\s+as\s+/);
      return [local, exported];
    });
}

/**
 * Finds the public declarations of the library: for each source file, the names it declares
 * that an entry point exports, directly or through `export ... from` re-exports. The entry
 * files are the `src:` values of `entryPointsFile` (entry-points.ts, the one list).
 *
 * @param {string} root - the repository folder.
 * @param {string} entryPointsFile - the entry list, relative to `root`.
 * @returns {Map<string, Set<string>>} absolute file path → public names declared there.
 */
export function publicDeclarations(root, entryPointsFile) {
  const list = readFileSync(join(root, entryPointsFile), 'utf8');
  const entries = [...list.matchAll(/src:\s*'([^']+)'/g)].map((m) => resolve(root, m[1] ?? ''));
  /** @type {Map<string, Set<string>>} */
  const found = new Map();
  /** @type {Map<string, string>} */
  const texts = new Map();
  const read = (/** @type {string} */ file) => {
    let text = texts.get(file);
    if (text === undefined) {
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        text = '';
      }
      texts.set(file, text);
    }
    return text;
  };
  /**
   * @param {string} file
   * @param {string} name - a name `file` exports; `*` for all of them.
   */
  const visit = (file, name) => {
    const text = read(file);
    for (const m of text.matchAll(EXPORT_FROM)) {
      const target = resolve(dirname(file), (m[2] ?? '').replace(/\.js$/, '.ts'));
      if (m[1] === '*') visit(target, name);
      else
        for (const [local, exported] of specifiers(m[1] ?? ''))
          if (name === '*' || exported === name) visit(target, local);
    }
    const names = found.get(file) ?? new Set();
    found.set(file, names);
    if (name === '*') for (const m of text.matchAll(EXPORT_DECLARATION)) names.add(m[1] ?? '');
    else names.add(name);
  };
  for (const entry of entries) {
    const text = read(entry);
    for (const m of text.matchAll(EXPORT_LIST))
      for (const [, exported] of specifiers(m[1] ?? '')) visit(entry, exported);
    for (const m of text.matchAll(EXPORT_DECLARATION)) visit(entry, m[1] ?? '');
  }
  return found;
}
