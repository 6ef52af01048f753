import { defineConfig } from 'tsup';
import { binEntries, entryPoints } from './entry-points.js';

export default defineConfig({
  entry: Object.fromEntries([...entryPoints, ...binEntries].map((e) => [e.out, e.src])),
  format: ['esm'],
  target: 'node20',
  dts: true,
  clean: true,
  // Maps give stack traces (`node --enable-source-maps`) the TypeScript file and line; the
  // sources themselves are not inlined, which would more than double the package.
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  splitting: true,
  treeshake: true,
});
