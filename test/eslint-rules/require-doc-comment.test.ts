import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportsOf, settingInRepository, writeFixture } from './lint-fixture.js';

// The API reference is made of doc comments: `local/require-doc-comment` (eslint-rules/)
// requires one on every public declaration and on each of its members. "Public" means exported
// by an entry point of the list file, directly or through `export ... from`.
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
    dir = writeFixture('scimkit-docs-', FIXTURE);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports public declarations and members without a doc comment, and nothing else', async () => {
    expect(await reportsOf(dir, 'require-doc-comment')).toEqual([
      'src/api.ts:10 Member "c" of public Renamed has no doc comment (/** ... */).',
      'src/api.ts:5 Member "b" of public Shown has no doc comment (/** ... */).',
      'src/api.ts:7 Public shown has no doc comment (/** ... */).',
      'src/index.ts:5 Public bare has no doc comment (/** ... */).',
    ]);
  });

  it('is on for src/ in the repository config', async () => {
    expect(await settingInRepository('require-doc-comment')).toEqual([2]);
  });
});
