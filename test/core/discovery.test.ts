import { describe, expect, it } from 'vitest';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA, userSchema } from '../../src/index.js';
import { ACCOUNT, BASE, ORIGIN, patchBody, setup } from './harness.js';

describe('discovery tells the truth', () => {
  it('every ServiceProviderConfig claim matches what the server does', async () => {
    const { request, createUser } = setup();
    const spc = (await request('GET', '/ServiceProviderConfig')).body;
    expect(spc.meta).toEqual({
      resourceType: 'ServiceProviderConfig',
      location: `${ORIGIN}${BASE}/ServiceProviderConfig`,
    });
    const user = await createUser('ada@example.org');

    // patch
    const patched = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'A' }),
    });
    expect(spc.patch.supported).toBe(patched.status === 200);
    // bulk
    expect(spc.bulk.supported).toBe((await request('POST', '/Bulk', { body: {} })).status !== 501);
    // filter and its maxResults
    for (let i = 0; i < 3; i++) await createUser(`u${i}@example.org`);
    const filtered = await request('GET', '/Users', {
      query: `filter=${encodeURIComponent('userName eq "ada@example.org"')}`,
    });
    expect(spc.filter.supported).toBe(filtered.body.totalResults === 1);
    expect(spc.filter.maxResults).toBe(100);
    // sort
    const sorted = await request('GET', '/Users', {
      query: 'sortBy=userName&sortOrder=descending',
    });
    expect(spc.sort.supported).toBe(sorted.status === 200);
    // etag
    const read = await request('GET', `/Users/${user.id}`);
    const notModified = await request('GET', `/Users/${user.id}`, {
      headers: { 'if-none-match': read.headers.etag ?? '' },
    });
    expect(spc.etag.supported).toBe(read.headers.etag !== undefined && notModified.status === 304);
    // changePassword: not supported, and a password is never kept
    expect(spc.changePassword.supported).toBe(false);
    // authentication
    expect(spc.authenticationSchemes).toEqual([
      expect.objectContaining({ type: 'oauthbearertoken', primary: true }),
    ]);
    expect((await request('GET', '/ServiceProviderConfig', { key: null })).status).toBe(401);
  });

  it('advertiseCursors: false leaves the pagination block out, and cursor paging still answers', async () => {
    const advertised = setup();
    const quiet = setup({ advertiseCursors: false });
    const shown = (await advertised.request('GET', '/ServiceProviderConfig')).body;
    expect(shown.pagination).toMatchObject({ cursor: true, index: true });
    const spc = (await quiet.request('GET', '/ServiceProviderConfig')).body;
    expect(spc).not.toHaveProperty('pagination');
    expect(spc).toHaveProperty('filter');
    for (let i = 0; i < 3; i++) await quiet.createUser(`cursor-${i}@example.org`);
    const first = await quiet.request('GET', '/Users', { query: 'cursor&count=2' });
    expect(first.status).toBe(200);
    expect(first.body.Resources).toHaveLength(2);
    const next = await quiet.request('GET', '/Users', {
      query: `count=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    });
    expect(next.body.Resources).toHaveLength(1);
    expect(next.body).not.toHaveProperty('nextCursor');
  });

  it('/ResourceTypes lists User with its extensions, and Group; /ResourceTypes/User answers alone', async () => {
    const { request } = setup();
    const list = (await request('GET', '/ResourceTypes')).body;
    expect(list.totalResults).toBe(2);
    expect(list.Resources[0]).toMatchObject({
      id: 'User',
      endpoint: '/Users',
      schema: USER_SCHEMA,
      schemaExtensions: [
        { schema: ENTERPRISE_USER_SCHEMA, required: false },
        { schema: ACCOUNT, required: false },
      ],
      meta: { resourceType: 'ResourceType', location: `${ORIGIN}${BASE}/ResourceTypes/User` },
    });
    expect((await request('GET', '/ResourceTypes/User')).body).toEqual(list.Resources[0]);
    expect((await request('GET', '/ResourceTypes/Group')).body).toEqual(list.Resources[1]);
    expect((await request('GET', '/ResourceTypes/Widget')).status).toBe(404);
  });

  it('/Schemas serves the definitions that validate requests', async () => {
    const { request } = setup();
    const list = (await request('GET', '/Schemas')).body;
    expect(list.Resources.map((s: { id: string }) => s.id)).toEqual([
      USER_SCHEMA,
      ENTERPRISE_USER_SCHEMA,
      ACCOUNT,
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
    const user = (await request('GET', `/Schemas/${USER_SCHEMA}`)).body;
    const names = user.attributes.map((a: { name: string }) => a.name);
    expect(names).toEqual(
      userSchema.attributes
        .map((a) => a.name)
        .filter((n) => !['id', 'externalId', 'meta'].includes(n)),
    );
    const userName = user.attributes.find((a: { name: string }) => a.name === 'userName');
    expect(userName).toMatchObject({
      type: 'string',
      required: true,
      uniqueness: 'server',
      caseExact: false,
    });
    const password = user.attributes.find((a: { name: string }) => a.name === 'password');
    expect(password).toMatchObject({ mutability: 'writeOnly', returned: 'never' });
    const account = (await request('GET', `/Schemas/${ACCOUNT}`)).body;
    expect(account.attributes[0]).toMatchObject({ name: 'status', mutability: 'readOnly' });
    expect((await request('GET', '/Schemas/urn:nope')).status).toBe(404);
  });
});
