import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type FoundRuntime, findRuntime, RUNTIME_NAMES } from './find-runtime.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each runtime's binary, or why there is none; found once for every test file. */
    runtimes: FoundRuntime[];
  }
}

const ROOT = join(import.meta.dirname, '..', '..');

function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);
}

/**
 * Refuses to test a missing or stale build (Bun, Deno and workerd run the built `dist`), then
 * finds the runtime binaries once and hands them to every test file.
 */
export default function setup(project: TestProject): void {
  let built: number;
  try {
    built = statSync(join(ROOT, 'dist', 'index.js')).mtimeMs;
  } catch {
    throw new Error('test:runtimes runs the built package: run `npm run build` first');
  }
  if (newest(join(ROOT, 'src')) > built) {
    throw new Error('dist/ is older than src/: run `npm run build` again');
  }
  project.provide('runtimes', RUNTIME_NAMES.map(findRuntime));
}
