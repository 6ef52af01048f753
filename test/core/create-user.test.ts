import { describe, expect, it } from 'vitest';
import { ACCOUNT, BASE, ORIGIN, USER_SCHEMA, setup } from './harness.js';

describe('POST /Users', () => {
  it('creates a user: 201, generated id, Location and ETag headers, SCIM media type', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName: 'ada@example.org',
        active: true,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(reply.body.id).toMatch(/^[0-9a-z]{26}$/);
    expect(reply.body.userName).toBe('ada@example.org');
    expect(reply.body.name).toEqual({ givenName: 'Ada', familyName: 'Lovelace' });
    expect(reply.body.schemas).toContain(USER_SCHEMA);
    expect(reply.body.meta).toMatchObject({
      resourceType: 'User',
      version: 'W/"1"',
      location: `${ORIGIN}${BASE}/Users/${reply.body.id}`,
    });
    expect(reply.headers.location).toBe(reply.body.meta.location);
    expect(reply.headers.etag).toBe('W/"1"');
    const read = await request('GET', `/Users/${reply.body.id}`);
    expect(read.body).toEqual(reply.body);
  });

  it('active true: status Invited and exactly one welcome email to the userName', async () => {
    const { request, scim, sent } = setup();
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(reply.body[ACCOUNT].status).toBe('Invited');
    await scim.mail?.drain();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: 'ada@example.org',
      userId: reply.body.id,
      tenant: 'tenant-a',
    });
    expect(sent[0]?.idempotencyKey).toBeTruthy();
  });

  it.each([
    ['false', { active: false }],
    ['omitted', {}],
  ])('active %s: status Pending, active false, no email', async (_label, extra) => {
    const { request, scim, sent } = setup();
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', ...extra },
    });
    expect(reply.body.active).toBe(false);
    expect(reply.body[ACCOUNT].status).toBe('Pending');
    await scim.mail?.drain();
    expect(sent).toHaveLength(0);
  });

  it('retried POST of an existing userName, in any case: 409 uniqueness, no second user', async () => {
    const { request, createUser, allUsers } = setup();
    await createUser('ada@example.org');
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ADA@Example.org' },
    });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ scimType: 'uniqueness', status: '409' });
    expect(await allUsers()).toHaveLength(1);
  });

  it('keeps the same userName free in another tenant', async () => {
    const { createUser } = setup();
    await createUser('ada@example.org');
    await expect(createUser('ada@example.org', {}, 'key-tenant-b')).resolves.toBeTruthy();
  });

  it('accepts application/json as well as application/scim+json', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org' },
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(reply.status).toBe(201);
  });

  it('ignores attributes it does not model and readOnly attributes a client sends', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName: 'ada@example.org',
        id: 'client-chosen',
        meta: { version: 'W/"99"' },
        groups: [{ value: 'g1' }],
        favouriteColour: 'green',
        [ACCOUNT]: { status: 'Activated' },
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.id).not.toBe('client-chosen');
    expect(reply.body.meta.version).toBe('W/"1"');
    expect(reply.body.groups).toBeUndefined();
    expect(reply.body.favouriteColour).toBeUndefined();
    expect(reply.body[ACCOUNT].status).toBe('Pending');
  });

  it('treats null and empty arrays as no value, and "True" strings as booleans', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName: 'ada@example.org',
        displayName: null,
        emails: [],
        active: 'True',
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).not.toHaveProperty('displayName');
    expect(reply.body).not.toHaveProperty('emails');
    expect(reply.body.active).toBe(true);
  });

  it('never returns or stores the password', async () => {
    const { request, store } = setup();
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', password: 'hunter2' },
    });
    expect(reply.status).toBe(201);
    expect(JSON.stringify(reply.body)).not.toContain('hunter2');
    expect(JSON.stringify(store.peek('tenant-a', reply.body.id))).not.toContain('hunter2');
  });

  describe('bad input changes nothing', () => {
    const cases: Array<[string, unknown, number, string | undefined]> = [
      ['missing userName', { schemas: [USER_SCHEMA] }, 400, 'invalidValue'],
      ['userName not an email', { schemas: [USER_SCHEMA], userName: 'ada' }, 400, 'invalidValue'],
      [
        'userName too long',
        { schemas: [USER_SCHEMA], userName: `${'a'.repeat(250)}@example.org` },
        400,
        'invalidValue',
      ],
      ['userName not a string', { schemas: [USER_SCHEMA], userName: 42 }, 400, 'invalidValue'],
      [
        'wrong type in name',
        { schemas: [USER_SCHEMA], userName: 'a@example.org', name: { givenName: 7 } },
        400,
        'invalidValue',
      ],
      [
        'active not a boolean',
        { schemas: [USER_SCHEMA], userName: 'a@example.org', active: 'yes' },
        400,
        'invalidValue',
      ],
      [
        'unknown schema urn',
        { schemas: [USER_SCHEMA, 'urn:example:nope'], userName: 'a@example.org' },
        400,
        'invalidValue',
      ],
      [
        'schemas without the User urn',
        { schemas: [], userName: 'a@example.org' },
        400,
        'invalidSyntax',
      ],
      ['schemas missing', { userName: 'a@example.org' }, 400, 'invalidSyntax'],
      ['a JSON array body', [], 400, 'invalidSyntax'],
      [
        'two primary emails',
        {
          schemas: [USER_SCHEMA],
          userName: 'a@example.org',
          emails: [
            { value: 'a@x.org', primary: true },
            { value: 'b@x.org', primary: true },
          ],
        },
        400,
        'invalidValue',
      ],
    ];
    it.each(cases)('%s → %i %s', async (_label, body, status, scimType) => {
      // The contract's email rule: two of the cases are bad only under it.
      const { request, allUsers } = setup({ userNameRule: 'email' });
      const reply = await request('POST', '/Users', { body });
      expect(reply.status).toBe(status);
      expect(reply.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
      expect(reply.body.status).toBe(String(status));
      expect(reply.body.scimType).toBe(scimType);
      expect(reply.body.detail).toEqual(expect.any(String));
      expect(await allUsers()).toEqual([]);
    });

    it('malformed JSON → 400 invalidSyntax', async () => {
      const { request, allUsers } = setup();
      const reply = await request('POST', '/Users', { body: '{"schemas": [' });
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('invalidSyntax');
      expect(await allUsers()).toEqual([]);
    });

    it('an empty body → 400 invalidSyntax', async () => {
      const { request } = setup();
      const reply = await request('POST', '/Users', { body: '' });
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('invalidSyntax');
    });

    it('wrong media type → 415', async () => {
      const { request, allUsers } = setup();
      const reply = await request('POST', '/Users', {
        body: JSON.stringify({ schemas: [USER_SCHEMA], userName: 'a@example.org' }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(reply.status).toBe(415);
      expect(reply.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(await allUsers()).toEqual([]);
    });

    it('a body over the limit → 413', async () => {
      const { request, allUsers } = setup();
      const reply = await request('POST', '/Users', {
        body: JSON.stringify({
          schemas: [USER_SCHEMA],
          userName: 'a@example.org',
          displayName: 'x'.repeat(1024 * 1024),
        }),
      });
      expect(reply.status).toBe(413);
      expect(await allUsers()).toEqual([]);
    });

    it('bytes that are not UTF-8 → 400 invalidSyntax', async () => {
      const { scim } = setup();
      const response = await scim.handle({
        method: 'POST',
        path: `${BASE}/Users`,
        headers: { authorization: 'Bearer key-tenant-a', 'content-type': 'application/scim+json' },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      });
      expect(response.status).toBe(400);
    });
  });
});

describe('body encoding', () => {
  it('accepts a JSON body that starts with a UTF-8 byte-order mark', async () => {
    const { request } = setup();
    const reply = await request('POST', '/Users', {
      body: `\ufeff${JSON.stringify({ schemas: [USER_SCHEMA], userName: 'bom@example.org' })}`,
    });
    expect(reply.status).toBe(201);
  });

  it('a filter longer than the limit → 400 invalidFilter', async () => {
    const { request } = setup();
    const filter = Array.from({ length: 400 }, (_, i) => `userName eq "u${i}@example.org"`).join(
      ' or ',
    );
    const reply = await request('GET', '/Users', { query: `filter=${encodeURIComponent(filter)}` });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidFilter');
  });
});
