import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  listResponseJson,
  servedJson,
  SettledTexts,
  withLocation,
} from '../../src/core/http/response-json.js';
import type { StoredResource } from '../../src/core/handlers/resource-endpoint.js';
import { defineAttribute, defineSchema } from '../../src/index.js';
import { MemoryResourceStore } from '../../src/stores/memory/index.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';
import { BASE, ORIGIN, patchBody, setup } from './harness.js';

// The kept texts must be exactly what plain serialisation of the object shown gives, however
// often and however it is served: these tests serve each resource several times, from two
// base URLs, and compare every text with JSON.stringify of the object as it is at that moment.

const URLS = ['https://scim.example.org/scim/v2/Users', 'http://h/"q"\\/\u2028\ud800Users'];

const plain = (r: StoredResource, url: string) => JSON.stringify(withLocation(r, url));

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

// Any members, meta anywhere, any text (lone surrogates and escapes included).
const text = fc.string({ unit: 'binary', maxLength: 6 });
const json = fc.jsonValue({ maxDepth: 2 });
const resource = fc
  .tuple(
    fc.dictionary(text, json, { maxKeys: 4 }),
    fc.dictionary(text, json, { maxKeys: 3 }),
    fc.dictionary(text, json, { maxKeys: 2 }),
    text,
  )
  .map(([before, meta, after, id]) => ({ ...before, id, meta, ...after }) as StoredResource);

describe('SettledTexts', () => {
  it('serves a deeply frozen resource as plain serialisation does, every time, from any URL', () => {
    fc.assert(
      fc.property(fc.array(resource, { minLength: 1, maxLength: 4 }), (drawn) => {
        const texts = new SettledTexts(3);
        const frozen = drawn.map((r) => deepFreeze(r));
        for (let round = 0; round < 3; round++) {
          for (const r of frozen) {
            for (const url of [URLS[round % 2] as string, URLS[(round + 1) % 2] as string])
              expect(texts.json(r, url)).toBe(plain(r, url));
          }
        }
      }),
    );
  });

  it('serves what a resource that can still change holds at that moment', () => {
    const base = () => ({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id: 'u-1',
      name: { givenName: 'Ada' },
      emails: [{ value: 'ada@example.org' }],
      meta: { resourceType: 'User', version: 'W/"1"' },
    });
    let calls = 0;
    const cases: Array<{ r: StoredResource; change: () => void }> = [];
    const notFrozen = base();
    cases.push({ r: notFrozen as never, change: () => (notFrozen.name.givenName = 'Bea') });
    const shallow = Object.freeze(base());
    cases.push({ r: shallow as never, change: () => (shallow.name.givenName = 'Bea') });
    const array = Object.freeze({ ...base(), name: Object.freeze({ givenName: 'Ada' }) });
    cases.push({ r: array as never, change: () => array.emails.push({ value: 'b@x' }) });
    const meta = { resourceType: 'User', version: 'W/"1"' };
    const openMeta = deepFreeze({ ...base(), meta: undefined as unknown });
    const withMeta = Object.freeze({ ...openMeta, meta });
    cases.push({ r: withMeta as never, change: () => (meta.version = 'W/"2"') });
    const getter = deepFreeze(
      Object.defineProperty({ ...base() }, 'title', { enumerable: true, get: () => calls }),
    );
    cases.push({ r: getter as never, change: () => (calls += 1) });
    const own = deepFreeze({ ...base(), toJSON: () => ({ calls }) });
    cases.push({ r: own as never, change: () => (calls += 1) });
    const member = deepFreeze({
      ...base(),
      nickName: Object.assign(() => 0, { toJSON: () => calls }),
    });
    cases.push({ r: member as never, change: () => (calls += 1) });
    for (const { r, change } of cases) {
      const texts = new SettledTexts(8);
      expect(texts.json(r, URLS[0] as string)).toBe(plain(r, URLS[0] as string));
      change();
      expect(texts.json(r, URLS[0] as string)).toBe(plain(r, URLS[0] as string));
      expect(texts.size).toBe(0);
    }
  });

  it('keeps a text from the second read, at most its capacity, the oldest going first', () => {
    const users = [1, 2, 3].map((n) =>
      deepFreeze({ id: `u-${n}`, meta: { version: `W/"${n}"` } } as StoredResource),
    );
    const url = URLS[0] as string;
    const texts = new SettledTexts(2);
    const [u1, u2, u3] = users as [StoredResource, StoredResource, StoredResource];
    const read = (u: StoredResource) => expect(texts.json(u, url)).toBe(plain(u, url));
    // A first read is answered plainly and only remembered.
    read(u2);
    read(u3);
    expect(texts.size).toBe(0);
    // Read a second time while remembered: kept.
    read(u2);
    read(u3);
    expect(texts.size).toBe(2);
    // u1, read twice, comes in place of the oldest kept (u2), which is remembered no more.
    read(u1);
    read(u1);
    expect(texts.size).toBe(2);
    for (const u of [u1, u2, u3]) read(u);
    expect(texts.size).toBe(2);
    const none = new SettledTexts(0);
    for (let i = 0; i < 3; i++)
      expect(none.json(users[0] as StoredResource, url)).toBe(
        plain(users[0] as StoredResource, url),
      );
    expect(none.size).toBe(0);
  });

  it('leaves a page read for the first time to plain serialisation, and keeps it from the second read', () => {
    const users = [1, 2, 3].map((n) =>
      deepFreeze({ id: `u-${n}`, meta: { version: `W/"${n}"` } } as StoredResource),
    );
    const url = URLS[0] as string;
    const texts = new SettledTexts(8);
    expect(texts.page(users, url)).toBeUndefined();
    expect(texts.size).toBe(0);
    expect(texts.page(users, url)).toEqual(users.map((u) => plain(u, url)));
    expect(texts.size).toBe(3);
    // A page with one resource never read before is written from texts too.
    const fresh = deepFreeze({ id: 'u-9', meta: { version: 'W/"1"' } } as StoredResource);
    expect(texts.page([fresh, ...users], url)).toEqual([fresh, ...users].map((u) => plain(u, url)));
    expect(new SettledTexts(0).page(users, url)).toBeUndefined();
  });

  it('keeps nothing from passes over more resources than it holds (a full sync)', () => {
    const users = Array.from({ length: 10 }, (_, n) =>
      deepFreeze({ id: `u-${n}`, meta: { version: 'W/"1"' } } as StoredResource),
    );
    const url = URLS[1] as string;
    const texts = new SettledTexts(4);
    for (let pass = 0; pass < 3; pass++)
      for (const u of users) expect(texts.json(u, url)).toBe(plain(u, url));
    expect(texts.size).toBe(0);
  });
});

describe('servedJson and listResponseJson', () => {
  const page = fc.dictionary(
    text.filter((key) => key !== 'Resources'),
    json,
    { maxKeys: 4 },
  );

  it('write pages of settled resources, read again and again, as plain serialisation does', () => {
    fc.assert(
      fc.property(page, fc.array(resource, { maxLength: 4 }), (members, drawn) => {
        const frozen = drawn.map((r) => deepFreeze(r));
        // The same resource twice on a page, and pages read from two base URLs.
        const shown = [...frozen, ...frozen.slice(0, 1)];
        for (const url of [...URLS, ...URLS]) {
          const expected = JSON.stringify({
            ...members,
            Resources: shown.map((r) => withLocation(r, url)),
          });
          expect(listResponseJson(members, shown, url, undefined)).toBe(expected);
          for (const r of shown) expect(servedJson(r, url)).toBe(plain(r, url));
        }
      }),
    );
  });

  it('shape a page by its projection, whatever was kept for its resources', () => {
    const r = deepFreeze({ id: 'u-1', userName: 'ada', meta: { version: 'W/"1"' } });
    const project = (x: Record<string, unknown>) => ({ id: x.id, meta: x.meta });
    servedJson(r as StoredResource, URLS[0] as string);
    expect(listResponseJson({ n: 1 }, [r as StoredResource], URLS[0] as string, project)).toBe(
      JSON.stringify({
        n: 1,
        Resources: [
          project(
            withLocation(r as StoredResource, URLS[0] as string) as unknown as Record<
              string,
              unknown
            >,
          ),
        ],
      }),
    );
  });
});

describe('reads served from kept texts', () => {
  const DEVICE = 'urn:example:params:scim:schemas:fleet:2.0:Device';

  it("show a user's groups as they are now, and each new version", async () => {
    const { request, createUser } = setup();
    const { id } = (await createUser('ada@example.org')) as { id: string };
    const read = async () => {
      const one = (await request('GET', `/Users/${id}`)).body;
      const listed = (await request('GET', '/Users', { query: 'count=10' })).body.Resources[0];
      const found = (
        await request('GET', '/Users', { query: `filter=${encodeURIComponent(`id eq "${id}"`)}` })
      ).body.Resources[0];
      expect(listed).toEqual(one);
      expect(found).toEqual(one);
      return one;
    };
    expect((await read()).groups).toBeUndefined();
    const group = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Staff', members: [{ value: id }] },
    });
    expect((await read()).groups).toEqual([expect.objectContaining({ value: group.body.id })]);
    await request('PATCH', `/Groups/${group.body.id as string}`, {
      body: patchBody({ op: 'remove', path: 'members' }),
    });
    expect((await read()).groups).toBeUndefined();
    await request('PATCH', `/Users/${id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Ada L.' }),
    });
    const after = await read();
    expect(after.displayName).toBe('Ada L.');
    expect(after.meta.location).toBe(`${ORIGIN}${BASE}/Users/${id}`);
    const projected = await request('GET', `/Users/${id}`, { query: 'attributes=userName' });
    expect(Object.keys(projected.body).sort()).toEqual(['id', 'schemas', 'userName']);
  });

  it("never show a host type's returned-never attribute, however often read", async () => {
    const { request } = setup({
      resourceTypes: [
        {
          name: 'Device',
          endpoint: '/Devices',
          schema: defineSchema({
            id: DEVICE,
            name: 'Device',
            description: 'A managed laptop',
            attributes: [
              defineAttribute('serial', 'string'),
              defineAttribute('unlockPin', 'string', {
                mutability: 'writeOnly',
                returned: 'never',
              }),
            ],
          }),
          store: new MemoryResourceStore(),
        },
      ],
    });
    const created = await request('POST', '/Devices', {
      body: { schemas: [DEVICE], serial: 'C02X', unlockPin: '1234' },
    });
    for (let i = 0; i < 2; i++) {
      const one = (await request('GET', `/Devices/${created.body.id as string}`)).body;
      const listed = (await request('GET', '/Devices')).body.Resources[0];
      for (const shown of [one, listed]) {
        expect(shown.serial).toBe('C02X');
        expect(shown.unlockPin).toBeUndefined();
      }
    }
  });
});
