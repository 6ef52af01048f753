import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'examples/**/*.test.ts'],
    // After `npm run build`: `npm run test:dist` tests the built package, `npm run test:runtimes` Bun, Deno and workerd.
    exclude: ['test/dist/**', 'test/runtimes/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
