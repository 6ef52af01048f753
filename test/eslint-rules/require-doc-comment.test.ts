import { ESLint } from 'eslint';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import local from '../../eslint-rules/plugin.js';

// The API reference is made of doc comments: `local/require-doc-comment` (eslint-rules/)
// requires one on every public declaration and on each of its members. "Public" means exported
// by an entry point of the list file, directly or through `export ... from`.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE: Record<string, string> = {
  'entry-points.ts': "export const entryPoints = [{ subpath: '.', src: 'src/index.ts' }];\n",
  'src/index.ts': [
    "export { Shown, shown } from './api.js';",
    "export type { Renamed as Public } from './api.js';",
    '/** Documented. */',
    'export const local = 1;',
    'export function bare(): void {}',
    '',
  ].join('\n'),
  'src/api.ts': [
    '/** A documented interface with one bare member. */',
    'export interface Shown {',
    '  /** Documented. */',
    '  readonly a: string;',
    '  readonly b: number;',
    '}',
    'export function shown(): void {}',
    '/** Exported under another name. */',
    'export type Renamed = {',
    '  c: string;',
    '};',
    '/** Not exported by the entry: members need no comment. */',
    'export interface Internal {',
    '  d: string;',
    '}',
    'export function internal(): void {}',
    '',
  ].join('\n'),
};

describe('the local/require-doc-comment lint rule', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scimkit-docs-'));
    mkdirSync(join(dir, 'src'));
    for (const [name, text] of Object.entries(FIXTURE)) writeFileSync(join(dir, name), text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports public declarations and members without a doc comment, and nothing else', async () => {
    const eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { local },
          rules: { 'local/require-doc-comment': 'error' },
        },
      ],
    });
    const results = await eslint.lintFiles(['src']);
    const reported = results
      .flatMap((result) =>
        result.messages.map(
          (m) => `${result.filePath.slice(dir.length + 1)}:${m.line} ${m.message}`,
        ),
      )
      .sort();
    expect(reported).toEqual([
      'src/api.ts:10 Member "c" of public Renamed has no doc comment (/** ... */).',
      'src/api.ts:5 Member "b" of public Shown has no doc comment (/** ... */).',
      'src/api.ts:7 Public shown has no doc comment (/** ... */).',
      'src/index.ts:5 Public bare has no doc comment (/** ... */).',
    ]);
  });

  it('is on for src/ in the repository config', async () => {
    const config = await new ESLint({ cwd: ROOT }).calculateConfigForFile(
      join(ROOT, 'src/index.ts'),
    );
    expect(config.rules?.['local/require-doc-comment']).toEqual([2]);
  });
});
