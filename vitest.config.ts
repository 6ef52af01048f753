import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'examples/**/*.test.ts'],
    // The built package is tested by `npm run test:dist` after `npm run build`.
    exclude: ['test/dist/**', 'test/runtimes/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
