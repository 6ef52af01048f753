// Text no store can hold (U+0000, lone surrogates) and absurd nesting are 400s
// (404 for an id), the same on every store, and nothing is written; error details quote little.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStore } from './every-store.js';
import { BASE, KEY_A, ORIGIN, USER_SCHEMA, patchBody, setup } from './harness.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const userJson = (rest: string) =>
  `{"schemas":["${USER_SCHEMA}"],"userName":"new@example.org",${rest}}`;

describe.each(everyStore)('client input on the $name store', ({ open }) => {
  let h: ReturnType<typeof setup>;
  let close: () => Promise<void>;
  let adaId: string;
  let ada: unknown;

  beforeAll(async () => {
    const opened = await open();
    close = () => opened.close();
    h = setup({ store: opened.store, onError: () => undefined });
    adaId = (await h.createUser('ada@example.org', { displayName: 'Ada' })).id;
    ada = (await h.request('GET', `/Users/${adaId}`)).body;
  }, 60_000);
  afterAll(() => close());

  /** Nothing was written: Ada is as she was and no other user exists. */
  async function unchanged() {
    expect((await h.request('GET', `/Users/${adaId}`)).body).toEqual(ada);
    expect((await h.allUsers()).map((u) => u.id)).toEqual([adaId]);
  }

  it.each([
    ['U+0000 in a string', userJson('"displayName":"a\\u0000b"'), 'displayName'],
    [
      'a lone surrogate in a string',
      userJson('"emails":[{"value":"\\ud800@x.org"}]'),
      'emails[0].value',
    ],
    ['a lone low surrogate', userJson('"name":{"givenName":"\\udc00"}'), 'name.givenName'],
    ['U+0000 in a key', userJson('"na\\u0000me":{}'), 'na\\u0000me'],
    ['U+0000 in an unknown attribute', userJson('"x":["\\u0000"]'), 'x[0]'],
    ['a raw lone surrogate in body text', userJson('"title":"\uD800"'), 'title'],
  ])('POST with %s answers 400 invalidValue naming the member', async (_, body, path) => {
    const reply = await h.request('POST', '/Users', { body });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
    expect(reply.body.detail).toContain(`"${path}"`);
    await unchanged();
  });

  it('PUT and PATCH with U+0000 in a value answer 400 and change nothing', async () => {
    const put = await h.request('PUT', `/Users/${adaId}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', displayName: 'A\u0000' },
    });
    expect([put.status, put.body.scimType]).toEqual([400, 'invalidValue']);
    const patch = await h.request('PATCH', `/Users/${adaId}`, {
      body: patchBody({ op: 'replace', path: 'emails[type eq "\u0000"].value', value: 'a@x.org' }),
    });
    expect([patch.status, patch.body.scimType]).toEqual([400, 'invalidValue']);
    const escaped = await h.request('PATCH', `/Users/${adaId}`, {
      body: patchBody({ op: 'replace', path: 'emails[type eq "\\u0000"].value', value: 'a@x.org' }),
    });
    // The PATCH engine reports a bad value filter as a bad path.
    expect([escaped.status, escaped.body.scimType]).toEqual([400, 'invalidPath']);
    await unchanged();
  });

  it('a body a host parser produced is held to the same rules', async () => {
    const send = (body: unknown) =>
      h.scim.handle({
        method: 'POST',
        path: `${BASE}/Users`,
        headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/scim+json' },
        body,
        baseUrl: ORIGIN,
      });
    const user = { schemas: [USER_SCHEMA], userName: 'new@example.org' };
    expect((await send({ ...user, nickName: '\u0000' })).status).toBe(400);
    const deep: unknown[] = [];
    let inner = deep;
    for (let i = 0; i < 5000; i++) inner.push((inner = []));
    const tooDeep = await send({ ...user, roles: deep });
    expect(tooDeep.status).toBe(400);
    expect(JSON.parse(tooDeep.body ?? '').scimType).toBe('invalidSyntax');
    // A bigint some JSON parsers produce: a type error, never a 500 from quoting it.
    const big = await send({ ...user, active: 10n });
    expect(big.status).toBe(400);
    expect(JSON.parse(big.body ?? '').detail).toBe('"active" must be a boolean; got 10.');
    await unchanged();
  });

  it('nesting deeper than 64 levels answers 400 invalidSyntax; 64 levels are read', async () => {
    // An unknown attribute is ignored, so only the limit decides.
    const at64 = await h.request('POST', '/Users', { body: userJson(`"x":${nested(63)}`) });
    expect(at64.status).toBe(201);
    await h.request('DELETE', `/Users/${at64.body.id}`);
    for (const body of [userJson(`"x":${nested(64)}`), userJson(`"emails":${nested(4100)}`)]) {
      const reply = await h.request('POST', '/Users', { body });
      expect([reply.status, reply.body.scimType]).toEqual([400, 'invalidSyntax']);
      expect(reply.body.detail).toBe(
        'The request body nests arrays and objects deeper than 64 levels.',
      );
    }
    await unchanged();
  });

  it('an error detail quotes at most 100 characters of the input', async () => {
    const reply = await h.request('POST', '/Users', {
      body: userJson(`"name":{"givenName":${nested(60)}},"title":"${'t'.repeat(100_000)}"`),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toBe(
      `"name.givenName" must be a string; got ${'['.repeat(60)}${']'.repeat(40)}….`,
    );
  });

  it.each(['x%00', '%00', `${'%00'.repeat(10)}`, '%ED%A0%80', '%uD800'])(
    'the id %s answers 404 on every method',
    async (id) => {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        const body =
          method === 'PUT'
            ? { schemas: [USER_SCHEMA], userName: 'ada@example.org' }
            : method === 'PATCH'
              ? patchBody({ op: 'replace', path: 'title', value: 'x' })
              : undefined;
        const reply = await h.request(method, `/Users/${id}`, body ? { body } : {});
        expect(reply.status, `${method} ${id}`).toBe(404);
      }
      await unchanged();
    },
  );

  it.each([
    ['filter=userName%20eq%20%22a%00%22', 'invalidFilter'],
    ['filter=userName%20eq%20%22%5Cu0000%22', 'invalidFilter'],
    ['filter=userName%20eq%20%22%5CuD800%22', 'invalidFilter'],
    ['filter=emails%5Bvalue%20eq%20%22%5CuDC00%22%5D', 'invalidFilter'],
    ['attributes=userName%00', 'invalidValue'],
    ['sortBy=%00', 'invalidValue'],
    ['x%00=1', 'invalidValue'],
  ])('GET /Users?%s answers 400 %s', async (query, scimType) => {
    const reply = await h.request('GET', '/Users', { query });
    expect([reply.status, reply.body.scimType]).toEqual([400, scimType]);
  });

  it('a filter literal with a surrogate pair escape is fine', async () => {
    const reply = await h.request('GET', '/Users', {
      query: `filter=${encodeURIComponent('displayName eq "\\ud83d\\ude00"')}`,
    });
    expect([reply.status, reply.body.totalResults]).toEqual([200, 0]);
  });

  it.each([
    'a\u0001b@example.org',
    'a\u007f@example.org',
    'a\u0085@example.org',
    'a@exa\u001bmple.org',
  ])(
    'a userName with a control character (%j) answers 400 invalidValue, on POST and PATCH',
    async (userName) => {
      const post = await h.request('POST', '/Users', {
        body: { schemas: [USER_SCHEMA], userName },
      });
      expect([post.status, post.body.scimType]).toEqual([400, 'invalidValue']);
      const patch = await h.request('PATCH', `/Users/${adaId}`, {
        body: patchBody({ op: 'replace', path: 'userName', value: userName }),
      });
      expect([patch.status, patch.body.scimType]).toEqual([400, 'invalidValue']);
      await unchanged();
    },
  );
});
