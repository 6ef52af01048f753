import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The kit servers' test (servers.test.ts), kept out of `npm test` because it starts five servers.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['bench/kit/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
