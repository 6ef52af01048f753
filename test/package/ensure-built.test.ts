// `npm run test:runtimes` runs the built package: on a fresh clone (no dist/) or after a change
// to the sources it builds first (vitest.runtimes.config.ts's global setup), instead of failing.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../runtimes/ensure-built.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A package folder with one source file, written at `sourceAt` (seconds since the epoch). */
async function project(sourceAt: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'scimkit-built-'));
  roots.push(root);
  await mkdir(join(root, 'src', 'core'), { recursive: true });
  const source = join(root, 'src', 'core', 'scim.ts');
  await writeFile(source, 'export {};');
  await utimes(source, sourceAt, sourceAt);
  return root;
}

/** A build that writes dist/index.js at `at`, counting its runs. */
function builder(root: string, at: number) {
  const runs = { count: 0 };
  const build = async () => {
    runs.count++;
    await mkdir(join(root, 'dist'), { recursive: true });
    await writeFile(join(root, 'dist', 'index.js'), 'export {};');
    await utimes(join(root, 'dist', 'index.js'), at, at);
  };
  return { runs, build };
}

describe('ensureBuilt, the runtime tests’ global setup', () => {
  it('builds a fresh clone that has no dist/', async () => {
    const root = await project(1_000);
    const { runs, build } = builder(root, 2_000);
    expect(await ensureBuilt(root, build)).toBe(true);
    expect(runs.count).toBe(1);
  });

  it('builds again when a source is newer than dist/, and not when dist/ is current', async () => {
    const root = await project(1_000);
    const { runs, build } = builder(root, 2_000);
    await ensureBuilt(root, build);
    expect(await ensureBuilt(root, build)).toBe(false);
    await utimes(join(root, 'src', 'core', 'scim.ts'), 3_000, 3_000);
    const later = builder(root, 4_000);
    expect(await ensureBuilt(root, later.build)).toBe(true);
    expect([runs.count, later.runs.count]).toEqual([1, 1]);
  });

  it('fails, naming dist/, when the build leaves it stale', async () => {
    const root = await project(5_000);
    const { build } = builder(root, 1_000);
    await expect(ensureBuilt(root, build)).rejects.toThrow(/dist.*missing or stale/);
  });
});
