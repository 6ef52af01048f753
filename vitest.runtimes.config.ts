import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contractSuites = ['./test/http/contract.test.ts', './test/http/group-contract.test.ts'].map(
  (suite) => fileURLToPath(new URL(suite, import.meta.url)),
);
const runtimeHarness = fileURLToPath(new URL('./test/runtimes/harness.ts', import.meta.url));

// `npm run test:runtimes` (its global setup builds dist/ when it is missing or stale): the HTTP contract suites (Users and Groups), with their targets
// swapped for Bun, Deno and workerd child processes, plus the runtime-only tests.
export default defineConfig({
  plugins: [
    {
      name: 'scimkit-runtime-targets',
      enforce: 'pre',
      resolveId: (source, importer) =>
        source === './harness.js' && contractSuites.includes(importer ?? '')
          ? runtimeHarness
          : undefined,
    },
  ],
  test: {
    include: [
      'test/http/contract.test.ts',
      'test/http/group-contract.test.ts',
      'test/runtimes/**/*.test.ts',
    ],
    globalSetup: ['test/runtimes/global-setup.ts'],
    // Tests that start a runtime themselves need its start time (up to 30 s) on top.
    testTimeout: 60_000,
    hookTimeout: 150_000,
  },
});
