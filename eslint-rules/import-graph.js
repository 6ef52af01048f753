// @ts-check
// The import graph of a TypeScript source tree, read from disk: the one implementation behind
// the `local/no-import-cycle` lint rule and test/eslint-rules/no-import-cycle.test.ts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Lists the relative module specifiers a source text imports: import and export declarations
 * (`import type` and `export type` included), side-effect imports, `import('...')` types and
 * dynamic imports, `import x = require('...')`. Comments and strings are not read as imports.
 *
 * @param {string} text
 * @returns {string[]}
 */
export function relativeSpecifiers(text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'));
}

/**
 * Resolves a relative specifier of `from` to the TypeScript file it names, as `NodeNext`
 * resolution does for sources (`./x.js` is `./x.ts`), or `undefined` when there is none.
 *
 * @param {string} from
 * @param {string} specifier
 * @returns {string | undefined}
 */
export function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base
      .replace(/\.js$/, '.ts')
      .replace(/\.mjs$/, '.mts')
      .replace(/\.jsx$/, '.tsx'),
    `${base}.ts`,
    join(base, 'index.ts'),
    base,
  ];
  return candidates.find(isFile);
}

/** @param {string} path */
function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The files a source file imports, each read once and kept while its modification time stays
 * the same. A kept entry is trusted for `trustMs` after its file was last looked at, so a
 * walk of the graph does not ask the file system about every file it passes, and an
 * editor's lint server still sees a saved change.
 */
export class ImportGraph {
  /** @type {Map<string, { mtimeMs: number; checkedAt: number; imports: string[] }>} */
  #files = new Map();
  #trustMs;

  /** @param {number} [trustMs] */
  constructor(trustMs = 1000) {
    this.#trustMs = trustMs;
  }

  /**
   * Returns the resolved files `file` imports (relative imports only); none for a file that
   * cannot be read.
   *
   * @param {string} file
   * @returns {readonly string[]}
   */
  importsOf(file) {
    const known = this.#files.get(file);
    const now = Date.now();
    if (known && now - known.checkedAt < this.#trustMs) return known.imports;
    let mtimeMs;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      this.#files.delete(file);
      return [];
    }
    if (known && known.mtimeMs === mtimeMs) {
      known.checkedAt = now;
      return known.imports;
    }
    const imports = importsIn(file, readFileSync(file, 'utf8'));
    this.#files.set(file, { mtimeMs, checkedAt: now, imports });
    return imports;
  }

  /**
   * Returns the import chain from `start` back to `goal` (`[start, ..., goal]`), or
   * `undefined` when `goal` cannot be reached. An import of `goal` that resolves to `start`
   * closes a cycle exactly when there is such a chain.
   *
   * `unreachable` holds files already proven not to reach `goal`; a search that fails adds the
   * files it saw, so the other imports of one file are checked in one walk of the graph.
   *
   * @param {string} start
   * @param {string} goal
   * @param {Set<string>} [unreachable]
   * @returns {string[] | undefined}
   */
  chainTo(start, goal, unreachable = new Set()) {
    /** @type {Set<string>} */
    const seen = new Set();
    /** @type {(node: string) => string[] | undefined} */
    const visit = (node) => {
      if (node === goal) return [node];
      if (seen.has(node) || unreachable.has(node)) return undefined;
      seen.add(node);
      for (const next of this.importsOf(node)) {
        const chain = visit(next);
        if (chain) return [node, ...chain];
      }
      return undefined;
    };
    const chain = visit(start);
    // Only a failed search proves that every file it saw cannot reach `goal`.
    if (!chain) for (const node of seen) unreachable.add(node);
    return chain;
  }

  /**
   * Lists every import cycle among `files`, once per import that closes one, as chains of
   * files from the importing file back to itself.
   *
   * @param {readonly string[]} files
   * @returns {string[][]}
   */
  cyclesAmong(files) {
    /** @type {string[][]} */
    const cycles = [];
    for (const file of files) {
      const unreachable = new Set();
      for (const target of this.importsOf(file)) {
        const chain = this.chainTo(target, file, unreachable);
        if (chain) cycles.push([file, ...chain]);
      }
    }
    return cycles;
  }
}

/**
 * Lists the resolved relative imports of a source text.
 *
 * @param {string} file
 * @param {string} text
 * @returns {string[]}
 */
export function importsIn(file, text) {
  /** @type {string[]} */
  const imports = [];
  for (const specifier of relativeSpecifiers(text)) {
    const target = resolveImport(file, specifier);
    if (target !== undefined && !imports.includes(target)) imports.push(target);
  }
  return imports;
}

/**
 * Lists the TypeScript files under `dir` (declaration files left out).
 *
 * @param {string} dir
 * @returns {string[]}
 */
export function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(m?ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
