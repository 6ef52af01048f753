// Left out of `tsc` (tsconfig.json excludes this folder): it imports the built package, which a
// clean checkout does not have before `npm run build`. `npm run test:dist` runs it after the build.
import { describe, expect, it } from 'vitest';
import { entryPoints } from '../../entry-points.js';

// Imports what ships: `scimkit` resolves to dist/ through package.json's exports map.
describe('the built package', () => {
  it.each(entryPoints.map((e) => [e.subpath]))('imports %s', async (subpath) => {
    const specifier = subpath === '.' ? 'scimkit' : `scimkit/${subpath.slice(2)}`;
    const module = (await import(specifier)) as Record<string, unknown>;
    expect(Object.keys(module).length).toBeGreaterThan(0);
  });

  it('serves a create and a read end to end from dist', async () => {
    const { createScim, staticApiKeys } = await import('scimkit');
    const { MemoryUserStore } = await import('scimkit/memory');
    const scim = createScim({
      store: new MemoryUserStore(),
      verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
    });
    const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };
    const created = await scim.handle({
      method: 'POST',
      path: '/Users',
      headers,
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'ada@example.org' }),
    });
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.body ?? '{}') as { id: string };
    const read = await scim.handle({ method: 'GET', path: `/Users/${id}`, headers });
    expect(read.status).toBe(200);
  });
});
