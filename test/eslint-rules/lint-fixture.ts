import { ESLint } from 'eslint';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import local from '../../eslint-rules/plugin.js';

/** The repository folder. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Writes `files` (relative path → text) into a fresh temporary folder, and returns it. */
export function writeFixture(prefix: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/**
 * Lints `dir`/src with the local rule `rule` alone, and lists what it reports as
 * `src/file.ts:line message`, sorted.
 */
export async function reportsOf(dir: string, rule: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { local },
        rules: { [`local/${rule}`]: 'error' },
      },
    ],
  });
  const results = await eslint.lintFiles(['src']);
  return results
    .flatMap((result) =>
      result.messages.map((m) => `${result.filePath.slice(dir.length + 1)}:${m.line} ${m.message}`),
    )
    .sort();
}

/** The setting of the local rule `rule` for src/ in the repository's own lint config. */
export async function settingInRepository(rule: string): Promise<unknown> {
  const eslint = new ESLint({ cwd: ROOT });
  const config = await eslint.calculateConfigForFile(join(ROOT, 'src', 'index.ts'));
  return config.rules?.[`local/${rule}`];
}
