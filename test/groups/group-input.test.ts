import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { patchBody, setup, USER_SCHEMA, type Reply } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// Every bad group input is a clear 400 SCIM error, and nothing of it is written.
describe.each(everyStore)('bad group input, $name store', ({ open }) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 120_000);
  afterAll(async () => opened?.close());

  async function withGroup(prefix: string) {
    const service = setup({ store: opened.store });
    const user = await service.createUser(`${prefix}@example.org`);
    const created = await service.request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Lincoln High', members: [{ value: user.id }] },
    });
    expect(created.status).toBe(201);
    const group = created.body as { id: string; members: unknown[] };
    const unchanged = async () => {
      const got = await service.request('GET', `/Groups/${group.id}`);
      expect(got.headers.etag).toBe('W/"1"');
      expect(got.body).toMatchObject({ displayName: 'Lincoln High', members: group.members });
    };
    return { ...service, user, group, unchanged };
  }

  it('refuses an empty or blank displayName on POST, PUT and PATCH (400 invalidValue)', async () => {
    const { request, group, unchanged } = await withGroup('blank');
    for (const displayName of ['', '   ']) {
      const posted = await request('POST', '/Groups', {
        body: { schemas: [GROUP_SCHEMA], displayName },
      });
      expect(posted.status).toBe(400);
      expect(posted.body).toMatchObject({ scimType: 'invalidValue' });
      expect(posted.body.detail).toContain('"displayName" is required and must not be empty');
      const put = await request('PUT', `/Groups/${group.id}`, {
        body: { schemas: [GROUP_SCHEMA], displayName },
      });
      expect(put.status).toBe(400);
      expect(put.body).toMatchObject({ scimType: 'invalidValue' });
      for (const operation of [
        { op: 'replace', path: 'displayName', value: displayName },
        { op: 'replace', value: { displayName } },
      ]) {
        const patched = await request('PATCH', `/Groups/${group.id}`, {
          body: patchBody(operation),
        });
        expect(patched.status).toBe(400);
        expect(patched.body).toMatchObject({ scimType: 'invalidValue' });
      }
    }
    await unchanged();
    const listed = await request('GET', '/Groups', { query: 'filter=displayName eq ""' });
    expect(listed.body.totalResults).toBe(0);
  });

  it('refuses a PATCH of a member’s immutable value, type or $ref (400 mutability)', async () => {
    const { request, group, user, unchanged, createUser } = await withGroup('immutable');
    const other = await createUser('immutable-other@example.org');
    for (const [sub, value] of [
      ['value', other.id],
      ['type', 'Group'],
      ['TYPE', 'User'],
      ['$ref', 'https://elsewhere.example.org/Users/x'],
    ]) {
      for (const op of ['replace', 'add', 'remove']) {
        const reply = await request('PATCH', `/Groups/${group.id}`, {
          body: patchBody({ op, path: `members[value eq "${user.id}"].${sub}`, value }),
        });
        expect(reply.status, `${op} ${sub}`).toBe(400);
        expect(reply.body).toMatchObject({ scimType: 'mutability' });
        expect(reply.body.detail).toContain('is immutable');
      }
    }
    // A filtered replace or add of whole members would re-point the one matched.
    for (const op of ['replace', 'add']) {
      const reply = await request('PATCH', `/Groups/${group.id}`, {
        body: patchBody({ op, path: `members[value eq "${user.id}"]`, value: { value: other.id } }),
      });
      expect(reply.status, op).toBe(400);
      expect(reply.body).toMatchObject({ scimType: 'mutability' });
    }
    // With a rename in the same message: nothing of it is written.
    const mixed = await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody(
        { op: 'replace', path: 'displayName', value: 'Renamed' },
        { op: 'replace', path: `members[value eq "${user.id}"].value`, value: other.id },
      ),
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ scimType: 'mutability' });
    expect(mixed.body.detail).toContain('Operation 2:');
    await unchanged();
  });

  it('refuses a null element of members as of the User’s emails (400 invalidValue)', async () => {
    const { request, group, user, unchanged } = await withGroup('nulls');
    const posted = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Nulls', members: [null, { value: user.id }] },
    });
    expect(posted.status).toBe(400);
    expect(posted.body).toMatchObject({ scimType: 'invalidValue' });
    expect(posted.body.detail).toContain('"members[0]"');
    const person = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'nulls2@example.org', emails: [null] },
    });
    expect(person.status).toBe(400);
    expect(person.body.detail).toContain('"emails[0]"');
    const put = await request('PUT', `/Groups/${group.id}`, {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Lincoln High', members: [null] },
    });
    expect(put.status).toBe(400);
    for (const operation of [
      { op: 'add', path: 'members', value: [null] },
      { op: 'replace', value: { members: [{ value: user.id }, null] } },
    ]) {
      const patched = await request('PATCH', `/Groups/${group.id}`, { body: patchBody(operation) });
      expect(patched.status).toBe(400);
      expect(patched.body).toMatchObject({ scimType: 'invalidValue' });
    }
    await unchanged();
  });

  it('refuses a member without a value, {} included, on POST, PUT, PATCH and Bulk (400 invalidValue)', async () => {
    const { request, group, unchanged } = await withGroup('no-value');
    const expectRefused = (reply: { status: number; body: Reply['body'] }, what: string) => {
      expect([reply.status, reply.body.scimType], what).toEqual([400, 'invalidValue']);
      expect(reply.body.detail, what).toMatch(/"members\[\d*\]\.value" is required/);
    };
    for (const member of [{}, { type: 'User' }, { display: 'Ada' }, { value: null }]) {
      const members = [member];
      const what = JSON.stringify(member);
      expectRefused(
        await request('POST', '/Groups', {
          body: { schemas: [GROUP_SCHEMA], displayName: 'No value', members },
        }),
        `POST ${what}`,
      );
      expectRefused(
        await request('PUT', `/Groups/${group.id}`, {
          body: { schemas: [GROUP_SCHEMA], displayName: 'Lincoln High', members },
        }),
        `PUT ${what}`,
      );
      for (const operation of [
        { op: 'add', path: 'members', value: members },
        { op: 'replace', path: 'members', value: members },
        { op: 'add', value: { members } },
        { op: 'replace', value: { members } },
      ]) {
        expectRefused(
          await request('PATCH', `/Groups/${group.id}`, { body: patchBody(operation) }),
          `PATCH ${JSON.stringify(operation)}`,
        );
      }
      const bulk = await request('POST', '/Bulk', {
        body: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
          Operations: [
            {
              method: 'POST',
              path: '/Groups',
              bulkId: 'g',
              data: { schemas: [GROUP_SCHEMA], displayName: 'Bulk no value', members },
            },
            {
              method: 'PATCH',
              path: `/Groups/${group.id}`,
              data: patchBody({ op: 'add', path: 'members', value: members }),
            },
          ],
        },
      });
      expect(bulk.status).toBe(200);
      for (const answer of bulk.body.Operations)
        expectRefused({ status: Number(answer.status), body: answer.response }, `Bulk ${what}`);
    }
    for (const name of ['No value', 'Bulk no value']) {
      const found = await request('GET', '/Groups', {
        query: `filter=${encodeURIComponent(`displayName eq "${name}"`)}`,
      });
      expect(found.body.totalResults, name).toBe(0);
    }
    await unchanged();
  });
});
