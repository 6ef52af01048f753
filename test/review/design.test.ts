// Targeted checks of DESIGN.md §2–§6 through `scim.handle`, for what test/core does not cover.
// Review findings 1–3 were fixed; their tests now assert the fixed behaviour.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, KEY_B, USER_SCHEMA, patchBody, setup } from '../core/harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const BOTH = 'attributes=userName&excludedAttributes=emails';
const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

describe('review finding 1: a projection error after the write (DESIGN §6 "a bad request changes nothing")', () => {
  it('POST /Users?attributes&excludedAttributes answers 400 and creates nothing, queues no email (review finding 1)', async () => {
    const { request, allUsers, store } = setup();
    const reply = await request('POST', '/Users', {
      query: BOTH,
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
    // A 400 must leave nothing behind, or the IdP's retry would get 409.
    expect(await allUsers()).toHaveLength(0);
    expect(store.outboxSnapshot()).toHaveLength(0);
  });

  it('PATCH /Users/{id}?attributes&excludedAttributes answers 400 and applies nothing (review finding 1)', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      query: BOTH,
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Changed' }),
    });
    expect(reply.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('PUT /Users/{id}?attributes&excludedAttributes answers 400 and replaces nothing (review finding 1)', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PUT', `/Users/${ada.id}`, {
      query: BOTH,
      body: { schemas: [USER_SCHEMA], userName: 'renamed@example.org' },
    });
    expect(reply.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('the same parameters on a read are refused before anything happens', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    expect((await request('GET', `/Users/${ada.id}`, { query: BOTH })).status).toBe(400);
  });
});

describe('review finding 2: Object.prototype names are not routes', () => {
  it.each(['/__proto__', '/constructor', '/__proto__/x', '/constructor/x'])(
    'GET %s answers 404, not a 405 from Object.prototype (review finding 2)',
    async (path) => {
      const { request } = setup();
      const reply = await request('GET', path);
      // DESIGN §6: unknown route → 404. RFC 9110 §15.5.6: a 405 must list the allowed methods.
      expect(reply.status).toBe(404);
    },
  );

  it.each(['/toString', '/hasOwnProperty', '/Schemas/__proto__', '/ResourceTypes/constructor'])(
    'GET %s → 404',
    async (path) => {
      const { request } = setup();
      expect((await request('GET', path)).status).toBe(404);
    },
  );
});

describe('review finding 3: PUT with an "id" that is not a string', () => {
  it('PUT with "id": {"toString": 1} answers 400 mutability, not 500 (review finding 3)', async () => {
    const errors: unknown[] = [];
    const { request, createUser } = setup({ onError: (e) => errors.push(e) });
    const ada = await createUser('ada@example.org');
    const reply = await request('PUT', `/Users/${ada.id}`, {
      body: `{"schemas":["${USER_SCHEMA}"],"userName":"ada@example.org","id":{"toString":1}}`,
    });
    expect(errors).toEqual([]);
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('mutability');
  });

  it('PUT with "id": {} or ["x"] is a 400 mutability', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    for (const id of [{}, [ada.id], 7]) {
      const reply = await request('PUT', `/Users/${ada.id}`, {
        body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', id },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('mutability');
    }
  });
});

describe('§5 listing edges', () => {
  async function twoUsers() {
    const h = setup();
    await h.createUser('ada@example.org');
    await h.createUser('bob@example.org');
    return h;
  }

  it('count=0 answers the total with an empty page and Resources present', async () => {
    const { request } = await twoUsers();
    const reply = await request('GET', '/Users', { query: 'count=0' });
    expect(reply.body).toMatchObject({
      totalResults: 2,
      itemsPerPage: 0,
      startIndex: 1,
      Resources: [],
    });
  });

  it('a huge startIndex and a huge count are read, not refused', async () => {
    const { request } = await twoUsers();
    const past = await request('GET', '/Users', { query: `startIndex=${'9'.repeat(30)}` });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ totalResults: 2, itemsPerPage: 0, Resources: [] });
    const all = await request('GET', '/Users', { query: `count=${'9'.repeat(30)}` });
    expect(all.body).toMatchObject({ totalResults: 2, itemsPerPage: 2 });
  });

  it('POST /Users/.search reads count 0 and a negative startIndex like the GET form', async () => {
    const { request } = await twoUsers();
    const reply = await request('POST', '/Users/.search', {
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        startIndex: -4,
        count: 0,
      },
    });
    expect(reply.body).toMatchObject({ totalResults: 2, itemsPerPage: 0, startIndex: 1 });
  });
});

describe('§5 filters on every attribute type', () => {
  async function people() {
    const h = setup();
    const ada = await h.createUser('ada@example.org', {
      schemas: [USER_SCHEMA, ENTERPRISE],
      active: true,
      externalId: 'ext-1',
      title: 'Teacher',
      profileUrl: 'https://example.org/ada',
      emails: [{ value: 'ada@work.example.org', type: 'work', primary: true }],
      x509Certificates: [{ value: 'QUJD' }],
      [ENTERPRISE]: { employeeNumber: '7', manager: { value: 'm-1' } },
    });
    const bob = await h.createUser('bob@example.org', { name: { givenName: 'Bob' } });
    return { ...h, ada, bob };
  }

  it.each([
    ['boolean', 'active eq true', ['ada']],
    ['boolean, not', 'not (active eq true)', ['bob']],
    ['dateTime', 'meta.created gt "2000-01-01T00:00:00Z"', ['ada', 'bob']],
    ['dateTime, none', 'meta.lastModified lt "2000-01-01T00:00:00Z"', []],
    ['reference', 'profileUrl sw "https://example.org/"', ['ada']],
    ['binary', 'x509Certificates.value eq "QUJD"', ['ada']],
    ['complex sub-attribute, caseExact false', 'name.givenName eq "BOB"', ['bob']],
    ['multi-valued', 'emails.value ew "work.example.org"', ['ada']],
    ['value filter', 'emails[type eq "work" and primary eq true]', ['ada']],
    ['presence', 'title pr', ['ada']],
    ['string, caseExact false', 'title eq "teacher"', ['ada']],
    ['externalId is caseExact', 'externalId eq "EXT-1"', []],
    ['externalId', 'externalId eq "ext-1"', ['ada']],
    ['extension string', `${ENTERPRISE}:employeeNumber eq "7"`, ['ada']],
    ['extension complex', `${ENTERPRISE}:manager.value eq "m-1"`, ['ada']],
    ['account status', `${ACCOUNT}:status eq "Pending"`, ['bob']],
    ['core URN prefix', `${USER_SCHEMA}:userName eq "BOB@example.org"`, ['bob']],
    ['index or scan', 'userName eq "ada@example.org" or name.givenName eq "bob"', ['ada', 'bob']],
  ])('%s: %s', async (_type, filter, expected) => {
    const { request, ada, bob } = await people();
    const reply = await request('GET', '/Users', { query: q(filter) });
    expect(reply.status).toBe(200);
    const names: Record<string, string> = { [ada.id]: 'ada', [bob.id]: 'bob' };
    expect(reply.body.Resources.map((u: { id: string }) => names[u.id])).toEqual(expected);
    expect(reply.body.totalResults).toBe(expected.length);
  });

  it.each([
    ['an ordering operator on a boolean', 'active gt true'],
    ['a dateTime that is not one', 'meta.created gt "yesterday"'],
    ['the writeOnly password', 'password pr'],
    ['a nested value filter', 'emails[value[type eq "x"]]'],
  ])('%s → 400 invalidFilter', async (_label, filter) => {
    const { request } = await people();
    const reply = await request('GET', '/Users', { query: q(filter) });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidFilter');
  });
});

describe('§2 tenant isolation under compound filters', () => {
  it('or, not and id filters never reach another tenant', async () => {
    const { request, createUser } = setup();
    await createUser('ada@example.org');
    const carol = await createUser('carol@example.org', {}, KEY_B);
    for (const filter of [
      'userName eq "carol@example.org" or userName pr',
      'not (userName eq "ada@example.org")',
      `id eq "${carol.id}"`,
      `id eq "${carol.id}" or userName eq "carol@example.org"`,
    ]) {
      const reply = await request('GET', '/Users', { query: q(filter) });
      expect(reply.status).toBe(200);
      expect(reply.body.Resources.map((u: { id: string }) => u.id)).not.toContain(carol.id);
    }
    const search = await request('POST', '/Users/.search', {
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: 'userName pr',
      },
    });
    expect(search.body.totalResults).toBe(1);
  });
});

describe('§4 account status through PUT', () => {
  it('PUT without active on a Deactivated user keeps it Deactivated and sends nothing', async () => {
    const { request, createUser, sent, scim } = setup();
    const ada = await createUser('ada@example.org', { active: true });
    await scim.dispatchOutbox();
    await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    const reply = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', displayName: 'Ada' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.active).toBe(false);
    expect(reply.body[ACCOUNT].status).toBe('Deactivated');
    await scim.dispatchOutbox();
    expect(sent).toHaveLength(1);
  });

  it('PUT active true on a Deactivated user that never logged in → Invited, no second email', async () => {
    const { request, createUser, sent, scim } = setup();
    const ada = await createUser('ada@example.org', { active: true });
    await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: 'False' },
    });
    const reply = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(reply.body[ACCOUNT].status).toBe('Invited');
    await scim.dispatchOutbox();
    expect(sent).toHaveLength(1);
  });

  it('a path-less PATCH value {"active": "False"} deactivates', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'Replace', value: { active: 'False' } }),
    });
    expect(reply.body[ACCOUNT].status).toBe('Deactivated');
  });
});

describe('§6 PATCH of readOnly attributes changes nothing', () => {
  it.each([
    ['meta', { op: 'replace', path: 'meta', value: { version: 'x' } }],
    ['meta.version', { op: 'replace', path: 'meta.version', value: 'W/"99"' }],
    ['id', { op: 'replace', path: 'id', value: 'mine' }],
    ['groups', { op: 'add', path: 'groups', value: [{ value: 'g-1' }] }],
    ['account status', { op: 'replace', path: `${ACCOUNT}:status`, value: 'Activated' }],
    ['path-less id', { op: 'replace', value: { id: 'mine' } }],
    ['path-less meta', { op: 'replace', value: { meta: { created: '2000-01-01T00:00:00Z' } } }],
    ['path-less groups', { op: 'add', value: { groups: [{ value: 'g-1' }] } }],
  ])('%s → 400 mutability, user unchanged', async (_label, operation) => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, { body: patchBody(operation) });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('mutability');
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('a PATCH of "schemas" never changes the stored schemas', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    for (const operation of [
      { op: 'replace', path: 'schemas', value: [USER_SCHEMA] },
      { op: 'add', path: 'schemas', value: [ENTERPRISE] },
      { op: 'replace', value: { schemas: ['urn:x'] } },
    ]) {
      const reply = await request('PATCH', `/Users/${ada.id}`, { body: patchBody(operation) });
      expect(reply.status).not.toBe(500);
      expect((await request('GET', `/Users/${ada.id}`)).body.schemas).toEqual(ada.schemas);
    }
  });

  it('removing userName → 400, user unchanged', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'remove', path: 'userName' }),
    });
    expect(reply.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('adding a second primary email leaves exactly one primary (RFC 7643 §2.4)', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org', {
      emails: [{ value: 'ada@example.org', type: 'work', primary: true }],
    });
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({
        op: 'add',
        path: 'emails',
        value: [{ value: 'a2@example.org', primary: true }],
      }),
    });
    expect(reply.status).toBe(200);
    const primaries = reply.body.emails.filter((e: { primary?: boolean }) => e.primary === true);
    expect(primaries).toEqual([{ value: 'a2@example.org', primary: true }]);
  });
});

describe('§3 userName rules', () => {
  it('a change to another letter case of itself is not a conflict (PATCH and PUT)', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const patched = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'ADA@example.org' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body.userName).toBe('ADA@example.org');
    const put = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'Ada@Example.org' },
    });
    expect(put.status).toBe(200);
    // The old spelling is still this user's, in any case.
    const taken = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@EXAMPLE.org' },
    });
    expect(taken.status).toBe(409);
  });

  it('a renamed user frees its old userName and holds the new one', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'augusta@example.org' }),
    });
    const reuse = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ADA@example.org' },
    });
    expect(reuse.status).toBe(201);
    const clash = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'Augusta@example.org' },
    });
    expect(clash.status).toBe(409);
  });

  it('non-ASCII letters are compared without case too', async () => {
    const { request, createUser } = setup();
    await createUser('ÄDA@example.org');
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'äda@example.org' },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.scimType).toBe('uniqueness');
  });

  it('254 characters is accepted and 255 refused, on POST and on PATCH (userNameRule "email")', async () => {
    const { request, createUser } = setup({ userNameRule: 'email' });
    const at254 = `${'a'.repeat(242)}@example.org`;
    const at255 = `${'a'.repeat(243)}@example.org`;
    expect(at254).toHaveLength(254);
    const created = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: at254 },
    });
    expect(created.status).toBe(201);
    const refused = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: at255 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.scimType).toBe('invalidValue');
    const ada = await createUser('ada@example.org');
    const patched = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: at255 }),
    });
    expect(patched.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('externalId is not unique: two users may share one, and a filter finds both', async () => {
    const { request, createUser } = setup();
    await createUser('ada@example.org', { externalId: 'same' });
    await createUser('bob@example.org', { externalId: 'same' });
    const reply = await request('GET', '/Users', { query: q('externalId eq "same"') });
    expect(reply.body.totalResults).toBe(2);
  });
});

describe('§6 prototype pollution', () => {
  const polluted = () => ({}) as Record<string, unknown>;

  it('"__proto__" and "constructor" members in POST, PUT and PATCH bodies stay data', async () => {
    const { request, createUser, store } = setup();
    const post = await request('POST', '/Users', {
      body: `{"schemas":["${USER_SCHEMA}"],"userName":"p@example.org","__proto__":{"active":true,"polluted":1},"name":{"__proto__":{"polluted":2},"givenName":"P"},"constructor":{"prototype":{"polluted":3}}}`,
    });
    expect(post.status).toBe(201);
    // A __proto__ member must not smuggle in active: true.
    expect(post.body.active).toBe(false);
    const ada = await createUser('ada@example.org');
    const patch = await request('PATCH', `/Users/${ada.id}`, {
      body: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","value":{"__proto__":{"polluted":4},"name":{"__proto__":{"polluted":5}}}},{"op":"add","path":"emails","value":[{"__proto__":{"polluted":6},"value":"x@example.org"}]}]}`,
    });
    expect(patch.status).toBe(200);
    const put = await request('PUT', `/Users/${ada.id}`, {
      body: `{"schemas":["${USER_SCHEMA}"],"userName":"ada@example.org","emails":[{"value":"y@example.org","__proto__":{"polluted":7}}]}`,
    });
    expect(put.status).toBe(200);
    expect(polluted().polluted).toBeUndefined();
    const stored = store.peek('tenant-a', ada.id) as Record<string, unknown>;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(JSON.stringify(stored)).not.toContain('polluted');
  });
});

describe('§5 conditional requests', () => {
  it('If-None-Match: * → 304; If-Match: * on an unknown id → 404; on a known one → applies', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const notModified = await request('GET', `/Users/${ada.id}`, {
      headers: { 'if-none-match': '*' },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(ada.meta.version);
    expect((await request('DELETE', '/Users/nope', { headers: { 'if-match': '*' } })).status).toBe(
      404,
    );
    const patched = await request('PATCH', `/Users/${ada.id}`, {
      headers: { 'if-match': '*' },
      body: patchBody({ op: 'replace', path: 'title', value: 'Dr' }),
    });
    expect(patched.status).toBe(200);
  });

  it('an If-Match list naming the current version among others applies', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      headers: { 'if-match': `W/"77", ${ada.meta.version}` },
      body: patchBody({ op: 'replace', path: 'title', value: 'Dr' }),
    });
    expect(reply.status).toBe(200);
  });
});
