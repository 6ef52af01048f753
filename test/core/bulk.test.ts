import { describe, expect, it } from 'vitest';
import type { RequestCompletedEvent, ScimEvent } from '../../src/index.js';
import { patchBody, setup, USER_SCHEMA } from './harness.js';

const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

function bulkBody(operations: unknown[], failOnErrors?: number) {
  return {
    schemas: [BULK],
    Operations: operations,
    ...(failOnErrors === undefined ? {} : { failOnErrors }),
  };
}

const user = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA],
  userName,
  ...extra,
});

describe('POST /Bulk', () => {
  it('runs POST, PUT, PATCH and DELETE and reports each operation', async () => {
    const { request, createUser } = setup();
    const existing = await createUser('zed@example.org');
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        { method: 'POST', path: '/Users', bulkId: 'ada', data: user('ada@example.org') },
        {
          method: 'PATCH',
          path: `/Users/${existing.id}`,
          version: existing.meta.version,
          data: patchBody({ op: 'replace', path: 'displayName', value: 'Zed' }),
        },
        {
          method: 'PUT',
          path: '/Users/bulkId:ada',
          data: user('ada@example.org', { title: 'Dr' }),
        },
        { method: 'DELETE', path: `/Users/${existing.id}` },
      ]),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:BulkResponse']);
    const [post, patch, put, del] = reply.body.Operations;
    expect(post).toMatchObject({ method: 'POST', bulkId: 'ada', status: '201' });
    expect(post.location).toMatch(/\/Users\/[^/]+$/);
    const adaId = post.location.split('/').pop();
    expect(patch).toMatchObject({ method: 'PATCH', status: '200' });
    expect(put).toMatchObject({
      method: 'PUT',
      status: '200',
      location: expect.stringContaining(`/Users/${adaId}`),
    });
    expect(del).toMatchObject({ method: 'DELETE', status: '204' });
    const ada = await request('GET', `/Users/${adaId}`);
    expect(ada.body.title).toBe('Dr');
    expect(ada.headers.etag).toBe(put.version);
    expect((await request('GET', `/Users/${existing.id}`)).status).toBe(404);
  });

  it('resolves bulkId references in any order (a reference to a user created later)', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        {
          method: 'POST',
          path: '/Users',
          bulkId: 'report',
          data: user('bob@example.org', {
            schemas: [USER_SCHEMA, ENTERPRISE],
            [ENTERPRISE]: { manager: { value: 'bulkId:boss' } },
          }),
        },
        { method: 'POST', path: '/Users', bulkId: 'boss', data: user('alice@example.org') },
      ]),
    });
    const [report, boss] = reply.body.Operations;
    expect(report.status).toBe('201');
    expect(boss.status).toBe('201');
    const bossId = boss.location.split('/').pop();
    const bob = await request('GET', `/Users/${report.location.split('/').pop()}`);
    expect(bob.body[ENTERPRISE].manager.value).toBe(bossId);
  });

  it('resolves a bulkId whose POST names the endpoint in another letter case', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        { method: 'POST', path: '/users', bulkId: 'ada', data: user('ada@example.org') },
        {
          method: 'PATCH',
          path: '/Users/bulkId:ada',
          data: patchBody({ op: 'replace', path: 'title', value: 'Dr' }),
        },
      ]),
    });
    const [post, patch] = reply.body.Operations;
    expect(post.status).toBe('201');
    expect(patch.status).toBe('200');
    const adaId = post.location.split('/').pop();
    expect(patch.location).toMatch(new RegExp(`/Users/${adaId}$`));
    expect((await request('GET', `/Users/${adaId}`)).body.title).toBe('Dr');
  });

  it('fails an operation whose bulkId is unknown, or whose POST failed, with 409 invalidValue', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        {
          method: 'PATCH',
          path: '/Users/bulkId:nobody',
          data: patchBody({ op: 'replace', path: 'title', value: 'x' }),
        },
        { method: 'POST', path: '/Users', bulkId: 'bad', data: { schemas: [USER_SCHEMA] } },
        { method: 'DELETE', path: '/Users/bulkId:bad' },
      ]),
    });
    const [unknown, bad, dependent] = reply.body.Operations;
    expect(unknown.status).toBe('409');
    expect(unknown.response.scimType).toBe('invalidValue');
    expect(bad.status).toBe('400');
    expect(bad.location).toBeUndefined();
    expect(dependent.status).toBe('409');
    expect(dependent.response.scimType).toBe('invalidValue');
  });

  it('refuses circular references with 409 and creates none of them', async () => {
    const { request, allUsers } = setup();
    const managed = (userName: string, by: string) =>
      user(userName, {
        schemas: [USER_SCHEMA, ENTERPRISE],
        [ENTERPRISE]: { manager: { value: `bulkId:${by}` } },
      });
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        { method: 'POST', path: '/Users', bulkId: 'a', data: managed('a@example.org', 'b') },
        { method: 'POST', path: '/Users', bulkId: 'b', data: managed('b@example.org', 'a') },
        { method: 'POST', path: '/Users', bulkId: 'c', data: user('c@example.org') },
      ]),
    });
    expect(reply.body.Operations.map((o: { status: string }) => o.status)).toEqual([
      '409',
      '409',
      '201',
    ]);
    expect((await allUsers()).map((u) => u.userName)).toEqual(['c@example.org']);
  });

  it('stops after failOnErrors errors: what ran stays, the rest is not run or reported', async () => {
    const { request, allUsers } = setup();
    const reply = await request('POST', '/Bulk', {
      body: bulkBody(
        [
          { method: 'POST', path: '/Users', bulkId: '1', data: user('one@example.org') },
          { method: 'POST', path: '/Users', bulkId: '2', data: user('one@example.org') },
          { method: 'POST', path: '/Users', bulkId: '3', data: user('three@example.org') },
        ],
        1,
      ),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.Operations).toHaveLength(2);
    expect(reply.body.Operations[1]).toMatchObject({ bulkId: '2', status: '409' });
    expect(reply.body.Operations[1].response.scimType).toBe('uniqueness');
    expect((await allUsers()).map((u) => u.userName)).toEqual(['one@example.org']);
  });

  it('holds each operation to its version (If-Match)', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        {
          method: 'PATCH',
          path: `/Users/${ada.id}`,
          version: 'W/"stale"',
          data: patchBody({ op: 'replace', path: 'title', value: 'x' }),
        },
      ]),
    });
    expect(reply.body.Operations[0].status).toBe('412');
    expect((await request('GET', `/Users/${ada.id}`)).body.title).toBeUndefined();
  });

  it('answers an operation exactly as the request sent alone (validation and dialect rules)', async () => {
    const bodies = [
      user('x@example.org', {
        active: 'False',
        emails: [{ value: 'x@example.org', primary: 'True' }],
      }),
      { schemas: [USER_SCHEMA], userName: 42 },
      user('x@example.org', { name: 'not an object' }),
    ];
    for (const data of bodies) {
      const alone = setup();
      const inBulk = setup();
      const single = await alone.request('POST', '/Users', { body: data });
      const reply = await inBulk.request('POST', '/Bulk', {
        body: bulkBody([{ method: 'POST', path: '/Users', bulkId: 'x', data }]),
      });
      const op = reply.body.Operations[0];
      expect(op.status).toBe(String(single.status));
      if (single.status >= 400) expect(op.response).toEqual(single.body);
      else {
        const got = (await inBulk.request('GET', `/Users/${op.location.split('/').pop()}`)).body;
        const strip = ({ id: _id, meta: _meta, ...rest }: Record<string, unknown>) => rest;
        expect(strip(got)).toEqual(strip(single.body));
      }
    }
  });

  it('emits each operation’s events, request trace and welcome email', async () => {
    const { request, scim, sent } = setup();
    const events: ScimEvent[] = [];
    const traced: RequestCompletedEvent[] = [];
    scim.on((e) => events.push(e));
    scim.onRequest((e) => traced.push(e));
    await request('POST', '/Bulk', {
      body: bulkBody([
        {
          method: 'POST',
          path: '/Users',
          bulkId: 'a',
          data: user('a@example.org', { active: true }),
        },
        {
          method: 'PATCH',
          path: '/Users/bulkId:a',
          data: patchBody({ op: 'replace', path: 'title', value: 'T' }),
        },
      ]),
    });
    expect(events.map((e) => e.type)).toEqual(['user.created', 'user.invited', 'user.updated']);
    expect(traced.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      expect.stringMatching(/^POST .*\/Users 201$/),
      expect.stringMatching(/^PATCH .*\/Users\/[^/]+ 200$/),
      expect.stringMatching(/^POST .*\/Bulk 200$/),
    ]);
    expect(traced[1]?.after?.title).toBe('T');
    await scim.mail?.drain();
    expect(sent.map((m) => m.to)).toEqual(['a@example.org']);
  });

  it('fails an operation on anything but a served resource, with a SCIM error', async () => {
    const { request } = setup({ me: () => null });
    const ops = [
      { method: 'POST', path: '/Schemas', data: {} },
      { method: 'POST', path: '/Users/.search', data: {} },
      { method: 'POST', path: '/Users?attributes=id', data: user('q@example.org') },
      { method: 'GET', path: '/Users' },
      {
        method: 'PATCH',
        path: '/Me',
        data: patchBody({ op: 'replace', path: 'title', value: 'x' }),
      },
      { method: 'POST', path: '/Bulk', data: bulkBody([]) },
      { method: 'DELETE', path: '/Users' },
      { method: 'POST', path: 'Users', data: user('r@example.org') },
      { method: 'POST', path: '/Users', data: 'not an object' },
      'not an operation',
    ];
    const reply = await request('POST', '/Bulk', { body: bulkBody(ops) });
    expect(reply.status).toBe(200);
    expect(reply.body.Operations).toHaveLength(ops.length);
    for (const op of reply.body.Operations) {
      expect(op.status).toBe('400');
      expect(op.response.detail).toEqual(expect.any(String));
    }
  });

  it('enforces and advertises maxOperations and maxPayloadSize', async () => {
    const { request, scim } = setup({
      maxBulkOperations: 3,
      maxBulkPayloadBytes: 4096,
      maxBodyBytes: 2048,
    });
    expect(scim.maxBodyBytes).toBe(4096);
    const spc = (await request('GET', '/ServiceProviderConfig')).body.bulk;
    expect(spc).toEqual({ supported: true, maxOperations: 3, maxPayloadSize: 4096 });
    const posts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        method: 'POST',
        path: '/Users',
        bulkId: `u${i}`,
        data: user(`u${i}@example.org`),
      }));
    const atLimit = await request('POST', '/Bulk', { body: bulkBody(posts(spc.maxOperations)) });
    expect(atLimit.body.Operations.map((o: { status: string }) => o.status)).toEqual([
      '201',
      '201',
      '201',
    ]);
    const over = await request('POST', '/Bulk', { body: bulkBody(posts(spc.maxOperations + 1)) });
    expect(over.status).toBe(413);
    expect(over.body.detail).toContain('maxOperations');
    const padded = (size: number) => {
      const body = bulkBody([
        { method: 'POST', path: '/Users', data: user('p@example.org', { title: '' }) },
      ]);
      const room = size - JSON.stringify(body).length;
      (body.Operations[0] as { data: { title: string } }).data.title = 'x'.repeat(room);
      return JSON.stringify(body);
    };
    expect((await request('POST', '/Bulk', { body: padded(spc.maxPayloadSize) })).status).toBe(200);
    expect((await request('POST', '/Bulk', { body: padded(spc.maxPayloadSize + 1) })).status).toBe(
      413,
    );
    // maxBodyBytes still holds every other request.
    const big = JSON.stringify(user('big@example.org', { title: 'x'.repeat(3000) }));
    expect((await request('POST', '/Users', { body: big })).status).toBe(413);
  });

  it('refuses a message that is not a BulkRequest with 400', async () => {
    const { request } = setup();
    for (const body of [
      [],
      { schemas: [BULK] },
      { schemas: ['urn:other'], Operations: [] },
      bulkBody([], 0),
      bulkBody([
        { method: 'POST', path: '/Users', bulkId: 'same', data: user('a@example.org') },
        { method: 'POST', path: '/Users', bulkId: 'same', data: user('b@example.org') },
      ]),
    ]) {
      const reply = await request('POST', '/Bulk', { body });
      expect(reply.status).toBe(400);
    }
  });

  it('never answers 500 to random operation lists', async () => {
    const { request } = setup();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(list: readonly T[]): T => list[random(list.length)] as T;
    const values = [
      undefined,
      null,
      0,
      -1,
      'x',
      '',
      'bulkId:',
      'bulkId:a',
      'bulkId:b',
      [],
      {},
      true,
      user('f@example.org'),
      user('bulkId:a', { emails: [{ value: 'bulkId:b' }] }),
      patchBody({ op: 'add', path: 'title', value: 'bulkId:a' }),
      patchBody(),
    ];
    const paths = [
      '/Users',
      '/Users/bulkId:a',
      '/Users/bulkId:b',
      '/users/%zz',
      '/Users/',
      '/',
      '',
      '/Users/a/b',
      '/Groups',
      '/ServiceProviderConfig',
      '/Users/bulkId:a/x',
    ];
    for (let round = 0; round < 60; round++) {
      const ops = Array.from({ length: random(8) }, () =>
        random(6) === 0
          ? pick(values)
          : {
              method: pick(['POST', 'PUT', 'PATCH', 'DELETE', 'post', 'GET', 7]),
              path: pick(paths),
              bulkId: pick(['a', 'b', 'c', undefined, 5]),
              version: pick([undefined, 'W/"x"', '*', 3]),
              data: pick(values),
            },
      );
      const reply = await request('POST', '/Bulk', {
        body: bulkBody(ops, pick([undefined, 1, 2])),
      });
      expect(reply.status, JSON.stringify(ops)).toBeLessThan(500);
      for (const op of reply.body?.Operations ?? [])
        expect(Number(op.status), JSON.stringify(ops)).toBeLessThan(500);
    }
  });
});
