import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  indexPageJson,
  listOfTexts,
  listResponseJson,
  locatedJson,
  resourceTexts,
  withLocation,
} from '../../src/core/http/response-json.js';
import { createScim } from '../../src/index.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

const URL = 'https://scim.example.org/api/v1/scim/v2/Users';

function user(meta: Record<string, unknown>, before: Record<string, unknown> = {}): ScimUser {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: 'u-1',
    userName: 'ada@example.org',
    ...before,
    meta,
  } as unknown as ScimUser;
}

const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };

/** A service on a memory store that lets any key in. */
function service() {
  return createScim({
    store: new MemoryUserStore(),
    verifier: { verify: () => ({ id: 't' }) },
    mailer: { sendWelcome: async () => {} },
  });
}

const META = { resourceType: 'User', created: 'c', lastModified: 'm', version: 'W/"3"' };

describe('locatedJson', () => {
  it('writes the same text as serialising a copy with the location', () => {
    for (const u of [
      user(META),
      user({}),
      user(META, { name: { givenName: 'Ada', 'meta"': '}}' }, displayName: '"meta":{}}' }),
      user({ ...META, location: 'http://elsewhere/Users/u-1' }),
      { ...user(META), active: true } as ScimUser,
      { ...user(META), toJSON: () => ({ replaced: true }) } as unknown as ScimUser,
    ]) {
      expect(locatedJson(u, URL)).toBe(JSON.stringify(withLocation(u, URL)));
    }
  });

  it('escapes the location as JSON and keeps a "__proto__" member as data', () => {
    const odd = user(META);
    Object.defineProperty(odd, '__proto__', {
      value: { x: 1 },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const moved = { ...odd, meta: odd.meta } as ScimUser;
    for (const u of [odd, moved]) {
      const text = locatedJson(u, 'http://h/"quoted"\\/Users');
      expect(text).toBe(JSON.stringify(withLocation(u, 'http://h/"quoted"\\/Users')));
      expect(JSON.parse(text).meta.location).toBe('http://h/"quoted"\\/Users/u-1');
    }
  });

  it('agrees with JSON.stringify for any members in any order, meta anywhere', () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), json, { maxKeys: 5 }),
        fc.dictionary(fc.string(), json, { maxKeys: 4 }),
        fc.dictionary(fc.string(), json, { maxKeys: 3 }),
        (before, meta, after) => {
          const u = { ...before, id: 'x', meta, ...after } as unknown as ScimUser;
          expect(locatedJson(u, URL)).toBe(JSON.stringify(withLocation(u, URL)));
        },
      ),
    );
  });
});

describe('listResponseJson', () => {
  const json = fc.jsonValue({ maxDepth: 2 });
  const resource = fc
    .tuple(
      fc.dictionary(fc.string(), json, { maxKeys: 4 }),
      fc.dictionary(fc.string(), json, { maxKeys: 3 }),
      fc.dictionary(fc.string(), json, { maxKeys: 2 }),
      fc.string(),
    )
    .map(([before, meta, after, id]) => ({ ...before, id, meta, ...after }) as unknown as ScimUser);
  const page = fc.dictionary(
    fc.string().filter((key) => key !== 'Resources'),
    json,
    { maxKeys: 5 },
  );

  it('writes the same text as serialising the page with its located resources', () => {
    fc.assert(
      fc.property(page, fc.array(resource, { maxLength: 3 }), (members, resources) => {
        const plain = JSON.stringify({
          ...members,
          Resources: resources.map((r) => withLocation(r, URL)),
        });
        expect(listResponseJson(members, resources, URL, undefined)).toBe(plain);
      }),
    );
  });

  it('shapes each resource with the projection, a page of one too', () => {
    const project = (r: Record<string, unknown>) => ({ id: r.id, meta: r.meta });
    fc.assert(
      fc.property(page, fc.array(resource, { maxLength: 2 }), (members, resources) => {
        const plain = JSON.stringify({
          ...members,
          Resources: resources.map((r) =>
            project(withLocation(r, URL) as unknown as Record<string, unknown>),
          ),
        });
        expect(listResponseJson(members, resources, URL, project)).toBe(plain);
      }),
    );
  });

  it('writes the same text around the texts of its resources, projected or not', () => {
    const project = (r: Record<string, unknown>) => ({ id: r.id, meta: r.meta });
    fc.assert(
      fc.property(
        page,
        fc.array(resource, { maxLength: 3 }),
        fc.boolean(),
        (members, resources, shaped) => {
          const shape = shaped ? project : undefined;
          expect(listOfTexts(members, resourceTexts(resources, URL, shape))).toBe(
            listResponseJson(members, resources, URL, shape),
          );
        },
      ),
    );
    expect(listOfTexts({}, [])).toBe('{"Resources":[]}');
  });

  it('writes an empty page and a page with no other members', () => {
    expect(listResponseJson({}, [], URL, undefined)).toBe('{"Resources":[]}');
    expect(listResponseJson({}, [user(META)], URL, undefined)).toBe(
      JSON.stringify({ Resources: [withLocation(user(META), URL)] }),
    );
  });
});

describe('indexPageJson', () => {
  const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
  const resource = fc
    .tuple(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.string())
    .map(([before, id]) => ({ ...before, id, meta: META }) as unknown as ScimUser);
  // Integers of every size, and numbers JSON writes differently from String (or not at all).
  const number = fc.oneof(
    fc.integer(),
    fc.maxSafeInteger(),
    fc.constantFrom(-0, 0.5, 1e21, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY),
  );

  it('writes the same text as serialising the index page, on a first read and on later ones', () => {
    fc.assert(
      fc.property(
        number,
        number,
        fc.array(resource, { maxLength: 3 }),
        (total, start, resources) => {
          const plain = JSON.stringify({
            schemas: [LIST],
            totalResults: total,
            itemsPerPage: resources.length,
            startIndex: start,
            Resources: resources.map((r) => withLocation(r, URL)),
          });
          const page = { totalResults: total, startIndex: start };
          // The first read serialises the page whole; the next one writes it around the texts.
          expect(indexPageJson(page, resources, URL, undefined)).toBe(plain);
          expect(indexPageJson(page, resources, URL, undefined)).toBe(plain);
        },
      ),
    );
  });

  it('shapes each resource with the projection', () => {
    const project = (r: Record<string, unknown>) => ({ id: r.id });
    const page = { totalResults: 7, startIndex: 3 };
    expect(indexPageJson(page, [user(META)], URL, project)).toBe(
      JSON.stringify({
        schemas: [LIST],
        totalResults: 7,
        itemsPerPage: 1,
        startIndex: 3,
        Resources: [{ id: 'u-1' }],
      }),
    );
  });
});

describe('a list page', () => {
  it('is the same document as a longer page, written as text', async () => {
    const scim = service();
    for (const userName of ['ada@example.org', 'bob@example.org']) {
      await scim.handle({
        method: 'POST',
        path: '/Users',
        headers,
        baseUrl: 'http://h',
        body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName }),
      });
    }
    const page = async (query: string) =>
      (await scim.handle({ method: 'GET', path: '/Users', query, headers, baseUrl: 'http://h' }))
        .body ?? '';
    const all = JSON.parse(await page('count=2'));
    const one = await page('filter=userName%20eq%20%22bob%40example.org%22');
    expect(one).toBe(
      JSON.stringify({ ...all, totalResults: 1, itemsPerPage: 1, Resources: [all.Resources[1]] }),
    );
    const first = await page('count=1');
    expect(first).toBe(JSON.stringify({ ...all, itemsPerPage: 1, Resources: [all.Resources[0]] }));
    await scim.close();
  });
});

describe('the layout of a written user', () => {
  it('keeps schemas and id first and the account and meta last, whatever a PATCH adds', async () => {
    const scim = service();
    const created = await scim.handle({
      method: 'POST',
      path: '/Users',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'ada@example.org',
        displayName: 'Ada',
      }),
    });
    const id = JSON.parse(created.body ?? '{}').id as string;
    const patch = async (operation: object) =>
      Object.keys(
        JSON.parse(
          (
            await scim.handle({
              method: 'PATCH',
              path: `/Users/${id}`,
              headers,
              body: JSON.stringify({
                schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
                Operations: [operation],
              }),
            })
          ).body ?? '{}',
        ),
      );
    const account = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';
    for (const operation of [
      { op: 'replace', path: 'displayName', value: 'Ada L.' },
      { op: 'add', path: 'title', value: 'Engineer' },
      { op: 'replace', path: 'active', value: true },
      { op: 'remove', path: 'displayName' },
    ]) {
      const keys = await patch(operation);
      expect(keys.slice(0, 2)).toEqual(['schemas', 'id']);
      expect(keys.slice(-2)).toEqual([account, 'meta']);
    }
    await scim.close();
  });
});
