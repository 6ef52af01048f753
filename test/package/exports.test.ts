import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { binEntries, entryPoints } from '../../entry-points.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, { types: string; import: string } | string>;
  bin: Record<string, string>;
  sideEffects: boolean;
  type: string;
};
const typedoc = JSON.parse(
  readFileSync(new URL('../../typedoc.json', import.meta.url), 'utf8'),
) as { entryPoints: string[] };

describe('the package manifest', () => {
  it('is ESM-only and free of side effects', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
  });

  it('exports exactly the entry points tsup builds, each with types', () => {
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== './package.json');
    expect(subpaths.sort()).toEqual(entryPoints.map((e) => e.subpath).sort());
    for (const entry of entryPoints) {
      expect(pkg.exports[entry.subpath]).toEqual({
        types: `./dist/${entry.out}.d.ts`,
        import: `./dist/${entry.out}.js`,
      });
    }
  });

  it('installs exactly the commands tsup builds', () => {
    expect(pkg.bin).toEqual(
      Object.fromEntries(binEntries.map((e) => [e.name, `./dist/${e.out}.js`])),
    );
  });

  it('documents every entry point with typedoc', () => {
    expect([...typedoc.entryPoints].sort()).toEqual(entryPoints.map((e) => e.src).sort());
  });
});
