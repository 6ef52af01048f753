import { defineConfig } from 'tsup';
import { binEntries, entryPoints } from './entry-points.js';

export default defineConfig({
  entry: Object.fromEntries([...entryPoints, ...binEntries].map((e) => [e.out, e.src])),
  format: ['esm'],
  target: 'node20',
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  treeshake: true,
});
