import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectScimError, PATCH_SCHEMA, ScimClient } from '../http/contract-client.js';
import type { RunningServer } from '../http/harness.js';
import { startRuntime } from './start-runtime.js';

// workerd is left out: PGlite loads its WebAssembly and data files from the file system at run
// time, which a Worker has not got (docs/adapters.md, "workerd").
const runtimes = inject('runtimes').filter((found) => found.name !== 'workerd');

describe.each(runtimes)('PostgreSQL store on PGlite in $name', (found) => {
  let server: RunningServer | undefined;
  const client = new ScimClient(() => server?.url ?? '', 'key-district-42');

  beforeAll(async () => {
    if (found.binary !== undefined) server = await startRuntime(found.name, found.binary, 'pglite');
  });
  afterAll(() => server?.close());

  it('creates, finds, patches and deletes a user', async (context) => {
    if (found.binary === undefined) return context.skip(found.missing);
    const created = await client.createUser('grace@example.org', { active: true });
    const id = String(created.json?.id);
    expect((await client.send('GET', `/Users/${id}`)).json).toEqual(created.json);
    expect(await client.countByUserName('GRACE@example.org')).toBe(1);
    const patched = await client.send('PATCH', `/Users/${id}`, {
      body: {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      },
    });
    expect(patched.status).toBe(200);
    expect((await client.send('GET', `/Users/${id}`)).json?.active).toBe(false);
    expect((await client.send('DELETE', `/Users/${id}`)).status).toBe(204);
    expectScimError(await client.send('GET', `/Users/${id}`), 404);
    expect(await client.countByUserName('grace@example.org')).toBe(0);
  });

  it('answers a second create of the same userName with 409 uniqueness', async (context) => {
    if (found.binary === undefined) return context.skip(found.missing);
    await client.createUser('twice@example.org');
    const again = await client.send('POST', '/Users', {
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'Twice@example.org',
      },
    });
    expectScimError(again, 409, 'uniqueness');
  });
});
