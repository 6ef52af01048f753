import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'examples/**/*.test.ts'],
    // The built package is tested by `npm run test:dist` after `npm run build`.
    exclude: ['test/dist/**', 'test/runtimes/**', '**/node_modules/**'],
    // One empty PGlite database for the run, which the tests copy instead of each running initdb.
    globalSetup: ['test/pglite/global-setup.ts'],
    // Two files at a time even on two cores: much of a file's time is spent waiting (child
    // processes, the PostgreSQL server, timers), which vitest's default of cores - 1 leaves idle.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
