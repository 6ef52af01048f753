// The text a store keys on (a Group's displayName, an externalId) has one length limit on every
// store: longer text was a 500 on PostgreSQL, whose btree index entries hold about 2,700 bytes.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEY_TEXT_LENGTH } from '../../src/schema/check-key-text.js';
import { everyStore, type OpenedStore } from './every-store.js';
import { patchBody, setup, USER_SCHEMA, type Reply } from './harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** Random CJK text (3 bytes a character in UTF-8), which PostgreSQL cannot compress away. */
const cjk = (length: number): string =>
  Array.from({ length }, () => String.fromCharCode(0x4e00 + randomInt(0x5000))).join('');

/** Just over the limit, and 3,000 bytes: more than a PostgreSQL index entry holds. */
const tooLong = () => [cjk(MAX_KEY_TEXT_LENGTH + 1), cjk(1000)];

function expectRefused(reply: Reply, attribute: string): void {
  expect(reply.status).toBe(400);
  expect(reply.body.scimType).toBe('invalidValue');
  expect(reply.body.detail).toContain(`"${attribute}" must be at most ${MAX_KEY_TEXT_LENGTH}`);
}

describe.each(everyStore)('text a store keys on, $name store', ({ open }) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 120_000);
  afterAll(async () => opened?.close());

  it('a Group displayName or externalId over the limit is 400 on POST, PUT and PATCH, and nothing is written', async () => {
    const { request } = setup({ store: opened.store });
    const longest = cjk(MAX_KEY_TEXT_LENGTH);
    const created = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: longest, externalId: longest },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    for (const attribute of ['displayName', 'externalId']) {
      for (const over of tooLong()) {
        const body = { schemas: [GROUP_SCHEMA], displayName: 'Short', [attribute]: over };
        expectRefused(await request('POST', '/Groups', { body }), attribute);
        expectRefused(await request('PUT', `/Groups/${id}`, { body }), attribute);
        const patch = patchBody({ op: 'replace', path: attribute, value: over });
        expectRefused(await request('PATCH', `/Groups/${id}`, { body: patch }), attribute);
      }
    }
    const listed = await request('GET', '/Groups', { query: 'count=100' });
    expect(listed.body.totalResults).toBe(1);
    const read = await request('GET', `/Groups/${id}`);
    expect(read.body).toMatchObject({ displayName: longest, externalId: longest });
    expect(read.body.meta.version).toBe(created.body.meta.version);
  });

  it("a User's externalId over the limit is 400 on POST, PUT and PATCH, and nothing is written", async () => {
    const { request, createUser } = setup({ store: opened.store });
    const user = await createUser('keyed@example.org', { externalId: cjk(MAX_KEY_TEXT_LENGTH) });
    for (const over of tooLong()) {
      const body = { schemas: [USER_SCHEMA], userName: 'keyed@example.org', externalId: over };
      expectRefused(
        await request('POST', '/Users', { body: { ...body, userName: 'other@example.org' } }),
        'externalId',
      );
      expectRefused(await request('PUT', `/Users/${user.id}`, { body }), 'externalId');
      const patch = patchBody({ op: 'replace', path: 'externalId', value: over });
      expectRefused(await request('PATCH', `/Users/${user.id}`, { body: patch }), 'externalId');
    }
    const listed = await request('GET', '/Users', { query: 'count=100' });
    expect(listed.body.totalResults).toBe(1);
    const read = await request('GET', `/Users/${user.id}`);
    expect(read.body.externalId).toBe(user.externalId);
    expect(read.body.meta.version).toBe(user.meta.version);
  });
});
