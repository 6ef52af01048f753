import { join } from 'node:path';
import { build, type Options } from 'tsup';
import type { TestProject } from 'vitest/node';
import config from '../../tsup.config.js';
import { ensureBuilt } from './ensure-built.js';
import { type FoundRuntime, findRuntime, RUNTIME_NAMES } from './find-runtime.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each runtime's binary, or why there is none; found once for every test file. */
    runtimes: FoundRuntime[];
  }
}

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Builds the package when dist/ is missing or older than its sources (Bun, Deno and workerd run
 * the built `dist`), then finds the runtime binaries once and hands them to every test file.
 */
export default async function setup(project: TestProject): Promise<void> {
  await ensureBuilt(ROOT, async () => {
    console.log('test:runtimes: dist/ is missing or stale; building it (npm run build)');
    await build({ ...(config as Options), config: false, silent: true });
  });
  project.provide('runtimes', RUNTIME_NAMES.map(findRuntime));
}
