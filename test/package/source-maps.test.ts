// The package ships source maps for stack traces, without the sources inlined in them: those
// were two thirds of the maps and more than half of the unpacked package.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Options } from 'tsup';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../../tsup.config.js';

describe('the built source maps', () => {
  let outDir: string | undefined;
  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('map every built file to its TypeScript source, and inline no source', async () => {
    outDir = await mkdtemp(join(tmpdir(), 'scimkit-maps-'));
    // The package's own build settings; only the type declarations are left out, for speed.
    await build({
      ...(config as Options),
      dts: false,
      clean: false,
      outDir,
      silent: true,
      config: false,
    });
    const files = await readdir(outDir);
    const maps = files.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBe(files.filter((f) => f.endsWith('.js')).length);
    for (const file of maps) {
      const map = JSON.parse(await readFile(join(outDir, file), 'utf8'));
      expect(map.sources.length, file).toBeGreaterThan(0);
      expect(map.mappings, file).not.toBe('');
      expect(map, file).not.toHaveProperty('sourcesContent');
    }
  }, 120_000);
});
