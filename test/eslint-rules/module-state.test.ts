import { ESLint } from 'eslint';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// No module-level mutable state in the library outside named caches with a stated
// reason. eslint.config.js holds src/ to it; these tests hold the rule to what it must refuse
// and what it must let through, with the project's own configuration.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

async function problems(code: string, file = 'src/core/example.ts'): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => `${m.line}: ${m.message}`);
}

// Loading the configuration (typescript-eslint) takes tens of seconds on a loaded machine.
describe('module state in src/', { timeout: 120_000 }, () => {
  it('refuses a module-level let or var, exported or not', async () => {
    const found = await problems(
      'let last = 0;\nexport let shared = 1;\nvar old = 2;\nexport const f = () => last + shared + old;\n',
    );
    expect(found.map((p) => p.slice(0, 2))).toEqual(['1:', '2:', '3:']);
  });

  it('refuses a bare module-level Map or Set, and lets a read-only one or a named cache through', async () => {
    const found = await problems(
      [
        'const seen = new Map<string, number>();',
        'export const tags = new Set<string>();',
        "const KNOWN: ReadonlySet<string> = new Set(['a']);",
        'const statementCache = new Map<string, string>();',
        'export function f(k: string) {',
        '  let local = 0;',
        '  const scratch = new Map<string, number>();',
        '  return [seen, tags, KNOWN, statementCache, local, scratch, k];',
        '}',
        '',
      ].join('\n'),
    );
    expect(found.map((p) => p.slice(0, 2))).toEqual(['1:', '2:']);
  });

  it('leaves tests alone', async () => {
    expect(
      await problems('let n = 0;\nexport const f = () => n;\n', 'test/example.test.ts'),
    ).toEqual([]);
  });
});
