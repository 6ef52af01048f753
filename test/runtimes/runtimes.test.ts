import { describe, expect, inject, it } from 'vitest';
import { ScimClient } from '../http/contract-client.js';
import { startRuntime } from './start-runtime.js';

// A runtime is skipped only when no binary for it runs here, with the reason in the report;
// SCIMKIT_REQUIRE_RUNTIMES=1 (CI) turns that skip into a failure.
const required = process.env.SCIMKIT_REQUIRE_RUNTIMES === '1';

describe.each(inject('runtimes'))('$name', (found) => {
  it('has a binary that runs on this machine', (context) => {
    if (found.binary !== undefined) return expect(found.version).not.toBe('');
    if (required) expect.fail(found.missing);
    context.skip(found.missing);
  });

  it('sends the welcome email of a user created active', async (context) => {
    if (found.binary === undefined) return context.skip(found.missing);
    const server = await startRuntime(found.name, found.binary);
    try {
      const client = new ScimClient(() => server.url, 'key-district-42');
      await client.createUser('welcome@example.org', { active: true });
      // The welcome subscriber delivers after the response; it must not be cut off when the request ends.
      await expect
        .poll(async () => (await fetch(`${server.origin}/__sent`)).json(), { timeout: 5_000 })
        .toEqual(['welcome@example.org']);
    } finally {
      await server.close();
    }
  });
});
