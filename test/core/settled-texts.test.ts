import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  listResponseJson,
  servedJson,
  SettledTexts,
  withLocation,
} from '../../src/core/http/response-json.js';
import type { StoredResource } from '../../src/core/handlers/resource-endpoint.js';
import { defineAttribute, defineSchema } from '../../src/index.js';
import {
  isSettled,
  SettledBuilder,
  settledCopy,
  settledRecord,
} from '../../src/json/settled-json.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';
import { BASE, ORIGIN, patchBody, setup } from './harness.js';
import { deepFreeze } from '../json/settled-helpers.js';

// The kept texts must be exactly what plain serialisation of the object shown gives, however
// often and however it is served: these tests serve each resource several times, from two
// base URLs, and compare every text with JSON.stringify of the object as it is at that moment.

const URLS = ['https://scim.example.org/scim/v2/Users', 'http://h/"q"\\/\u2028\ud800Users'];

const plain = (r: StoredResource, url: string) => JSON.stringify(withLocation(r, url));

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

// The rule of src/json/settled-json.ts written out as plainly as it reads, with no mark: every
// answer of `isSettled`, from a mark or a walk, and every copy `settledCopy` makes, must agree.
function plainlySettled(value: unknown): boolean {
  if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol')
    return false;
  if (typeof value !== 'object' || value === null) return true;
  const proto = Object.getPrototypeOf(value);
  if (
    !Object.isFrozen(value) ||
    ![Object.prototype, Array.prototype, null].includes(proto as object | null)
  )
    return false;
  return Object.values(Object.getOwnPropertyDescriptors(value))
    .filter((member) => member.enumerable)
    .every((member) => 'value' in member && plainlySettled(member.value));
}

// What JSON.stringify makes of a value, or that it throws (a bigint).
function textOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

// Any value: JSON data, and all that can change or that JSON renders its own way (getters,
// toJSON methods, functions, bigints, symbols, undefined members, sparse arrays, objects of a
// class or without a prototype), frozen, deeply or not at all. A getter answers `box.n`.
class Instance {}
class List extends Array<unknown> {}
function anyValue(box: { n: number }) {
  const leaf = fc.oneof(
    fc.jsonValue({ maxDepth: 0 }),
    fc.constantFrom(undefined, 7n, Symbol('s'), () => 1),
    fc.constant(Object.assign(() => 1, { toJSON: () => box.n })),
  );
  const key = fc.constantFrom('a', 'b', 'toJSON', '__proto__', '0', 'meta');
  const objectKinds = ['frozen', 'open', 'getter', 'toJSON', 'class', 'null'] as const;
  const arrayKinds = ['frozen', 'open', 'sparse', 'class'] as const;
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc
        .tuple(fc.array(tie('value'), { maxLength: 3 }), fc.constantFrom(...arrayKinds))
        .map(([items, kind]) => {
          const array = kind === 'class' ? List.from(items) : [...items];
          if (kind === 'sparse') array.length += 1;
          return kind === 'open' ? array : Object.freeze(array);
        }),
      fc
        .tuple(
          fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }),
          fc.constantFrom(...objectKinds),
        )
        .map(([entries, kind]) => {
          const object: Record<string, unknown> =
            kind === 'null' ? Object.create(null) : kind === 'class' ? new Instance() : {};
          for (const [k, v] of entries)
            Object.defineProperty(object, k, { value: v, enumerable: true, writable: true });
          if (kind === 'getter')
            Object.defineProperty(object, 'g', { enumerable: true, get: () => box.n });
          if (kind === 'toJSON') object.toJSON = () => box.n;
          return kind === 'open' ? object : Object.freeze(object);
        }),
    ),
  })).value;
}

describe('settled JSON, the one rule (src/json/settled-json.ts)', () => {
  it('answers as the plain rule does, asked once or again, for any value', () => {
    const box = { n: 0 };
    fc.assert(
      fc.property(anyValue(box), (value) => {
        const expected = plainlySettled(value);
        expect(isSettled(value)).toBe(expected);
        expect(isSettled(value)).toBe(expected);
      }),
    );
  });

  it('copies any value to the same JSON, frozen throughout, settled unless it holds no JSON', () => {
    const box = { n: 0 };
    fc.assert(
      fc.property(anyValue(box), (value) => {
        const before = textOf(value);
        const copy = settledCopy(value);
        expect(textOf(copy)).toBe(before);
        expect(isSettled(copy)).toBe(plainlySettled(copy));
        if (plainlySettled(value)) expect(copy).toBe(value);
        // Nothing in the copy changes with the getters and toJSON methods of the value.
        box.n += 1;
        const holdsFunctions = typeof copy === 'function' || !isSettled(copy);
        if (!holdsFunctions) expect(textOf(copy)).toBe(before);
      }),
    );
  });

  it('keeps the text of a resource exactly when the plain rule calls it settled', () => {
    const box = { n: 0 };
    const members = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'toJSON'), anyValue(box)), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(members, fc.boolean(), (entries, frozen) => {
        const resource: Record<string, unknown> = { id: 'u-1' };
        for (const [k, v] of entries) resource[k] = v;
        resource.meta = Object.freeze({ version: 'W/"1"' });
        if (frozen) Object.freeze(resource);
        const r = resource as unknown as StoredResource;
        const url = URLS[1] as string;
        const texts = new SettledTexts(4);
        for (let read = 0; read < 3; read++) {
          box.n += 1;
          const expected = textOf(withLocation(r, url));
          if (expected?.startsWith('throws')) expect(() => texts.json(r, url)).toThrow();
          else expect(texts.json(r, url)).toBe(expected);
        }
        expect(texts.size).toBe(plainlySettled(r) ? 1 : 0);
      }),
    );
  });

  it('builds an object member by member as plainly set, settled exactly when the rule says', () => {
    const box = { n: 0 };
    const entries = fc.array(
      fc.tuple(fc.constantFrom('a', 'b', '__proto__', 'meta'), anyValue(box)),
      {
        maxLength: 4,
      },
    );
    fc.assert(
      fc.property(entries, fc.constantFrom('none', 'settled', 'open'), (drawn, kind) => {
        // A previous version: settled (a memory store's), open (a host store's), or none.
        const shared = Object.freeze({ n: 1 });
        const previous =
          kind === 'none'
            ? undefined
            : kind === 'settled'
              ? settledCopy({ a: shared, b: shared })
              : { a: shared, b: shared };
        const plainObject: Record<string, unknown> = {};
        const builder = new SettledBuilder(drawn.length + 1, previous);
        for (const [k, v] of [...drawn, ['b', shared] as const]) {
          Object.defineProperty(plainObject, k, { value: v, enumerable: true, writable: true });
          builder.set(k, v);
        }
        const before = textOf(plainObject);
        const built = builder.finish();
        expect(textOf(built)).toBe(before);
        expect(Object.isFrozen(built)).toBe(true);
        expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
        expect(isSettled(built)).toBe(plainlySettled(built));
        // A member of the version it replaces is shared; over a host's version, nothing is copied.
        expect(built.b).toBe(shared);
        if (kind === 'open') for (const [k] of drawn) expect(built[k]).toBe(plainObject[k]);
        box.n += 1;
        if (isSettled(built)) expect(textOf(built)).toBe(before);
      }),
    );
  });

  it('freezes the record it is handed, settled when every member is a scalar', () => {
    const box = { n: 0 };
    const entries = fc.array(fc.tuple(fc.constantFrom('a', 'b', '__proto__'), anyValue(box)), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(entries, (drawn) => {
        const source: Record<string, unknown> = {};
        for (const [k, v] of drawn)
          Object.defineProperty(source, k, { value: v, enumerable: true, writable: true });
        // What its callers hand it: a record they have just made by a spread (or a literal).
        const record = { ...source };
        const before = textOf(record);
        const made = settledRecord(record);
        expect(made).toBe(record);
        expect(textOf(made)).toBe(before);
        expect(Object.isFrozen(made)).toBe(true);
        expect(isSettled(made)).toBe(plainlySettled(made));
      }),
    );
  });

  it('answers as the plain rule does for values the module made, copied or built, and copies of them', () => {
    const box = { n: 0 };
    const entries = fc.array(fc.tuple(fc.constantFrom('a', 'b', '__proto__'), anyValue(box)), {
      maxLength: 3,
    });
    // How the value is come by: made by the module (marked when settled), or a copy of such a
    // value made by a spread or by its property descriptors (the mark with it), open or frozen.
    const ways = [
      'copied',
      'built',
      'spread',
      'descriptors',
      'frozen spread',
      'frozen descriptors',
    ];
    fc.assert(
      fc.property(entries, fc.constantFrom(...ways), (drawn, way) => {
        const source: Record<string, unknown> = {};
        const builder = new SettledBuilder(drawn.length);
        for (const [k, v] of drawn) {
          Object.defineProperty(source, k, { value: v, enumerable: true, writable: true });
          builder.set(k, v);
        }
        const made = way === 'built' ? builder.finish() : settledCopy(source);
        let value: object = made;
        if (way.endsWith('spread')) value = { ...made };
        if (way.endsWith('descriptors'))
          value = Object.defineProperties({}, Object.getOwnPropertyDescriptors(made));
        if (way.startsWith('frozen')) Object.freeze(value);
        const expected = plainlySettled(value);
        expect(isSettled(value)).toBe(expected);
        expect(isSettled(value)).toBe(expected);
      }),
    );
  });

  it('stores a PUT and a PATCH of a user without walking the user or copying it again', async () => {
    const { request, createUser, store } = setup();
    const { id } = (await createUser('ada@example.org')) as { id: string };
    const walk = vi.spyOn(Object, 'getOwnPropertyDescriptor');
    try {
      await request('PUT', `/Users/${id}`, {
        body: {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: 'ada@example.org',
          active: true,
          name: { givenName: 'Ada' },
        },
      });
      await request('PATCH', `/Users/${id}`, {
        body: patchBody({ op: 'replace', path: 'active', value: false }),
      });
      // Only the new `meta` (a few scalars) is walked, never the user.
      const users = walk.mock.calls.filter(([target]) => 'userName' in (target as object));
      expect(users).toEqual([]);
    } finally {
      walk.mockRestore();
    }
    const stored = await store.get('tenant-a', id);
    expect(stored && isSettled(stored)).toBe(true);
  });

  it('knows a stored version settled without walking its members', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory();
    const user = users.make();
    await store.create('t', user);
    const stored = await store.get('t', user.id);
    // Whether a value is known settled without a descriptor read of any member.
    const knownWithoutWalk = (value: unknown) => {
      const walk = vi.spyOn(Object, 'getOwnPropertyDescriptor');
      try {
        return isSettled(value) && walk.mock.calls.length === 0;
      } finally {
        walk.mockRestore();
      }
    };
    expect(knownWithoutWalk(stored)).toBe(true);
    // A host's deeply frozen object is walked once, then known.
    const hosts = deepFreeze({ ...users.make(), name: { givenName: 'Ada' } });
    expect(knownWithoutWalk(hosts)).toBe(false);
    expect(knownWithoutWalk(hosts)).toBe(true);
  });
});

describe('the memory stores keep what a frozen value showed when it was written', () => {
  // A frozen object with a getter is not data: it answers what the getter answers at each read.
  function withTitle(user: object, title: () => string) {
    return deepFreeze(
      Object.defineProperty({ ...user }, 'title', { enumerable: true, get: title }),
    );
  }

  it('stores a user with a getter as the value the getter gave, on create and replace', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory();
    let title = 'Engineer';
    const made = users.make();
    await store.create('t', withTitle(made, () => title) as never);
    title = 'Manager';
    const stored = (await store.get('t', made.id))!;
    expect(stored.title).toBe('Engineer');
    const next = withTitle({ ...stored, meta: { ...stored.meta, version: 'W/"2"' } }, () => title);
    await store.replace('t', next as never, { expectedVersion: stored.meta.version });
    title = 'Director';
    const replaced = (await store.get('t', stored.id))!;
    expect(replaced.title).toBe('Manager');
    expect(JSON.parse(JSON.stringify(replaced)).title).toBe('Manager');
  });

  it('stores a resource with a getter inside as the value the getter gave', async () => {
    const store = new MemoryResourceStore();
    let serial = 'C02X';
    const resource = deepFreeze({
      schemas: ['urn:example:Device'],
      id: 'd-1',
      hardware: Object.defineProperty({}, 'serial', { enumerable: true, get: () => serial }),
      meta: { resourceType: 'Device', version: 'W/"1"' },
    });
    await store.create('t', resource as never, { uniqueKeys: {} });
    serial = 'C03Y';
    const stored = (await store.get('t', 'd-1')) as unknown as { hardware: { serial: string } };
    expect(stored.hardware.serial).toBe('C02X');
  });
});
