import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportGraph, relativeSpecifiers, sourceFiles } from '../../eslint-rules/import-graph.js';
import { ROOT, reportsOf, settingInRepository, writeFixture } from './lint-fixture.js';

// STYLE.md: no import cycle in the library, even through types. The lint rule
// `local/no-import-cycle` (eslint-rules/) forbids them; these tests hold it to a planted cycle
// and run its graph over src/.
const SRC = join(ROOT, 'src');

// A cycle through `import type` and `export type ... from` (a → b → c → a), one through an
// `import('...')` type (e ↔ f), a file that imports into the cycle without being part of it
// (d), and a plain chain (g → h).
const FIXTURE: Record<string, string> = {
  'a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
  'b.ts': "export type { C as B } from './c.js';\n",
  'c.ts': "import type { A } from './a.js';\nexport interface C {\n  a?: A;\n}\n",
  'd.ts': "import type { A } from './a.js';\nexport type D = A;\n",
  'e.ts': "export type E = import('./f.js').F;\n",
  'f.ts': "import type { E } from './e.js';\nexport type F = { e?: E };\n",
  'g.ts': "// import { a } from './g.js';\nimport { h } from './h.js';\nexport const g = h;\n",
  'h.ts': 'export const h = 1;\n',
};

describe('the local/no-import-cycle lint rule', () => {
  let dir = '';
  beforeAll(() => {
    const files = Object.entries(FIXTURE).map(([name, text]) => [`src/${name}`, text]);
    dir = writeFixture('scimkit-cycles-', Object.fromEntries(files));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports each import that closes a planted cycle, type-only ones included', async () => {
    const reported = await reportsOf(dir, 'no-import-cycle');
    expect(reported).toEqual([
      'src/a.ts:1 This import closes an import cycle: src/a.ts → src/b.ts → src/c.ts → src/a.ts.',
      'src/b.ts:1 This import closes an import cycle: src/b.ts → src/c.ts → src/a.ts → src/b.ts.',
      'src/c.ts:1 This import closes an import cycle: src/c.ts → src/a.ts → src/b.ts → src/c.ts.',
      'src/e.ts:1 This import closes an import cycle: src/e.ts → src/f.ts → src/e.ts.',
      'src/f.ts:1 This import closes an import cycle: src/f.ts → src/e.ts → src/f.ts.',
    ]);
  });

  it('finds the same cycles with the graph alone, and none once the cycles are broken', () => {
    const files = sourceFiles(join(dir, 'src'));
    const cycles = new ImportGraph(0).cyclesAmong(files);
    expect(
      cycles.map((chain) => chain.map((f) => f.slice(dir.length + 5)).join(' ')).sort(),
    ).toEqual([
      'a.ts b.ts c.ts a.ts',
      'b.ts c.ts a.ts b.ts',
      'c.ts a.ts b.ts c.ts',
      'e.ts f.ts e.ts',
      'f.ts e.ts f.ts',
    ]);
    writeFileSync(join(dir, 'src', 'c.ts'), 'export interface C {\n  a?: unknown;\n}\n');
    writeFileSync(join(dir, 'src', 'f.ts'), 'export type F = { e?: unknown };\n');
    expect(new ImportGraph(0).cyclesAmong(files)).toEqual([]);
  });

  it('reads imports as TypeScript does, not comments or strings', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from '../b.js';",
      "export * from './c.js';",
      "import './d.js';",
      "type E = import('./e.js').E;",
      "// import x from './comment.js';",
      'const s = "import y from \'./string.js\'";',
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(relativeSpecifiers(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js']);
  });

  it('is on for src/ in the repository config', async () => {
    expect(await settingInRepository('no-import-cycle')).toEqual([2]);
  });
});

describe('src/ has no import cycles', () => {
  it('none in the library, type-only imports included', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const graph = new ImportGraph();
    const edges = files.reduce((n, file) => n + graph.importsOf(file).length, 0);
    expect(edges).toBeGreaterThan(files.length);
    const cycles = graph.cyclesAmong(files);
    expect(cycles.map((chain) => chain.map((file) => file.slice(SRC.length + 1)))).toEqual([]);
  });
});
