/**
 * The targets test/http/contract.test.ts runs against under `npm run test:runtimes`:
 * vitest.runtimes.config.ts resolves that file's `./harness.js` here, so the one contract suite
 * runs unchanged against Bun, Deno and workerd. Each runtime serves its own copy of the service
 * (test/runtimes/entries/service.ts, the same keys and base path), since the suite's in-process
 * `scim` cannot cross into another process.
 */
import { inject } from 'vitest';
import type { RunningServer, Target } from '../http/harness.js';
import { startRuntime } from './start-runtime.js';

export type { RunningServer, Target } from '../http/harness.js';
export { MOUNT } from './start-runtime.js';

/** One target per runtime binary found; a missing one is reported by runtimes.test.ts. */
export const targets: readonly Target[] = inject('runtimes').flatMap((found) =>
  found.binary === undefined
    ? []
    : [
        {
          name: `${found.name} ${found.version}`,
          // Bun and workerd close such a connection at once; Deno reads the upload to its end.
          mayBreakUpload: found.name !== 'deno',
          start: (_scim, options): Promise<RunningServer> => {
            if (options !== undefined) {
              throw new Error(`${found.name} serves its own service; it takes no adapter options`);
            }
            return startRuntime(found.name, found.binary);
          },
        },
      ],
);
