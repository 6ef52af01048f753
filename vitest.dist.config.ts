import { defineConfig } from 'vitest/config';

// Runs after `npm run build`: imports the built package by its own name, through the exports map.
export default defineConfig({
  test: {
    include: ['test/dist/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
