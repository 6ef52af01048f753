// Property-based fuzzing of `scim.handle`: whatever a client sends, scimkit answers a SCIM
// response (never a 500 or a crash), and a refused write changes nothing.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScimRequest, ScimResponse } from '../../src/index.js';
import { BASE, KEY_A, KEY_B, ORIGIN, USER_SCHEMA, invitations, setup } from './harness.js';
import {
  ACCOUNT,
  ENTERPRISE,
  anyValue,
  bodies,
  headerSets,
  methods,
  patchBodies,
  paths,
  queries,
  userBodies,
  type Json,
} from './request-generators.js';

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };

/** Checks what every response must satisfy, and returns its parsed body. */
function checkResponse(response: ScimResponse, what: string): Json | undefined {
  const where = `${what} → ${response.status} ${response.body?.slice(0, 300) ?? ''}`;
  expect(response.status, where).not.toBe(500);
  expect(response.status, where).toBeGreaterThanOrEqual(200);
  expect(response.status, where).toBeLessThan(600);
  // HEAD answers as GET would, without the body (RFC 9110 §9.3.2).
  if (response.status === 204 || response.status === 304 || /^HEAD\b|"method":"HEAD"/i.test(what)) {
    expect(response.body, where).toBeUndefined();
    return undefined;
  }
  expect(typeof response.body, where).toBe('string');
  expect(response.headers['content-type'], where).toMatch(/^application\/scim\+json\b/);
  const body = JSON.parse(response.body as string) as Json;
  if (response.status >= 400) {
    expect(body.schemas, where).toEqual([ERROR_SCHEMA]);
    expect(body.status, where).toBe(String(response.status));
    expect(typeof body.detail, where).toBe('string');
    expect(body.detail, where).not.toMatch(/\n\s+at /); // no stack trace
  }
  return body;
}

/** Every stored user keeps its invariants: a valid userName, a boolean active, a status, no password. */
function checkStoredUser(user: Json, where: string): void {
  expect(typeof user.userName, where).toBe('string');
  expect(user.userName.length, where).toBeLessThanOrEqual(254);
  expect(user.userName, where).toMatch(/^[^@\s]+@[^@\s]+$/);
  expect(typeof user.active, where).toBe('boolean');
  expect(user.schemas, where).toContain(USER_SCHEMA);
  expect(user.password, where).toBeUndefined();
  expect(['Pending', 'Invited', 'Activated', 'Deactivated'], where).toContain(
    user[ACCOUNT]?.status,
  );
  for (const key of ['emails', 'phoneNumbers', 'ims', 'photos', 'addresses', 'roles']) {
    const values = user[key];
    if (values === undefined) continue;
    expect(Array.isArray(values), `${where}: ${key} is an array`).toBe(true);
    const primaries = (values as Json[]).filter((v) => v?.primary === true);
    expect(primaries.length, `${where}: at most one primary ${key}`).toBeLessThanOrEqual(1);
  }
}

// ---------------------------------------------------------------- properties

let pollutedBefore: unknown;
afterEach(() => {
  // Nothing a client sends may reach Object.prototype.
  expect(({} as Json).polluted).toBe(pollutedBefore);
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

async function seeded() {
  // The contract's rule, whose invariants checkStoredUser holds every stored user to.
  const h = setup({ onError: () => undefined, userNameRule: 'email' });
  const ada = await h.createUser('ada@example.org', {
    active: true,
    displayName: 'Ada',
    emails: [{ value: 'ada@example.org', type: 'work', primary: true }],
    roles: [{ value: 'teacher' }],
    [ENTERPRISE]: { employeeNumber: '7', manager: { value: 'm1' } },
  });
  const bob = await h.createUser('bob@example.org');
  const other = await h.createUser('carol@example.org', {}, KEY_B);
  return { ...h, ids: [ada.id as string, bob.id as string, other.id as string] };
}

/** Every stored user of both tenants, straight from the store. */
async function snapshot(h: Awaited<ReturnType<typeof seeded>>): Promise<string> {
  const tenants = ['tenant-a', 'tenant-b'];
  const all: Json = {};
  for (const t of tenants) {
    for (const id of h.ids) all[`${t}/${id}`] = h.store.peek(t, id);
  }
  const invited = (await invitations(h.store)) + (await invitations(h.store, 'tenant-b'));
  return JSON.stringify({ all, invited });
}

describe('fuzz: no input reaches a 500 or a crash', () => {
  it('any method, path, query, headers and body gets a well-formed SCIM answer', async () => {
    pollutedBefore = ({} as Json).polluted;
    const h = await seeded();
    await fc.assert(
      fc.asyncProperty(
        methods,
        paths(h.ids),
        queries,
        headerSets,
        bodies,
        async (method, path, query, headers, body) => {
          const request: ScimRequest = {
            method,
            path,
            headers,
            body,
            baseUrl: ORIGIN,
            ...(query === undefined ? {} : { query }),
          };
          const what = `${method} ${path.slice(0, 80)}?${String(typeof query === 'object' ? JSON.stringify(query) : query).slice(0, 120)}`;
          const response = await h.scim.handle(request);
          checkResponse(response, what);
          if (response.status === 401)
            expect(response.headers['www-authenticate'], what).toMatch(/^Bearer/);
          // Allow's content on odd paths is checked in design.test.ts (review finding 2).
          if (response.status === 405) expect(response.headers.allow, what).toBeDefined();
        },
      ),
      { numRuns: RUNS * 2, ...SEED },
    );
  }, 60_000);

  it('a request with garbage in every part never throws out of handle()', async () => {
    const h = await seeded();
    await fc.assert(
      fc.asyncProperty(
        anyValue,
        anyValue,
        anyValue,
        anyValue,
        async (method, path, query, headers) => {
          // Adapters should never pass these, but a host calling handle() directly might.
          const request = {
            method: typeof method === 'string' ? method : 'GET',
            path: typeof path === 'string' ? path : `${BASE}/Users`,
            query: typeof query === 'string' ? query : undefined,
            headers:
              typeof headers === 'object' && headers !== null && !Array.isArray(headers)
                ? { ...(headers as Json), authorization: `Bearer ${KEY_A}` }
                : { authorization: `Bearer ${KEY_A}` },
            baseUrl: ORIGIN,
          } as ScimRequest;
          checkResponse(await h.scim.handle(request), JSON.stringify(request).slice(0, 200));
        },
      ),
      { numRuns: RUNS, ...SEED },
    );
  }, 60_000);
});

describe('fuzz: a refused write changes nothing', () => {
  it('PATCH /Users/{id} with random operations: a 4xx leaves every user as it was; a 200 stores a valid user', async () => {
    const h = await seeded();
    const [adaId] = h.ids as [string];
    await fc.assert(
      fc.asyncProperty(
        patchBodies,
        fc.boolean(),
        fc.boolean(),
        async (patch, asText, withIfMatch) => {
          const before = await snapshot(h);
          const stored = h.store.peek('tenant-a', adaId) as Json;
          const headers: Record<string, string> = {
            authorization: `Bearer ${KEY_A}`,
            'content-type': 'application/scim+json',
          };
          if (withIfMatch) headers['if-match'] = stored.meta.version;
          const response = await h.scim.handle({
            method: 'PATCH',
            path: `${BASE}/Users/${adaId}`,
            headers,
            body: asText ? JSON.stringify(patch) : patch,
            baseUrl: ORIGIN,
          });
          const what = `PATCH ${JSON.stringify(patch).slice(0, 400)}`;
          const body = checkResponse(response, what);
          if (response.status >= 400) {
            expect(await snapshot(h), `${what}: refused, so nothing changes`).toBe(before);
            return;
          }
          expect(response.status, what).toBe(200);
          const after = h.store.peek('tenant-a', adaId) as Json;
          checkStoredUser(after, what);
          expect(after.id, what).toBe(adaId);
          expect(after.meta.created, what).toBe(stored.meta.created);
          expect(body?.id, what).toBe(adaId);
          // What a PATCH stores is something a PUT would accept back unchanged.
          const put = await h.scim.handle({
            method: 'PUT',
            path: `${BASE}/Users/${adaId}`,
            headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/scim+json' },
            body: JSON.stringify(after),
            baseUrl: ORIGIN,
          });
          const putBody = checkResponse(put, `PUT back after ${what}`);
          expect(put.status, `PUT back after ${what}: ${JSON.stringify(putBody)}`).toBe(200);
        },
      ),
      { numRuns: RUNS, ...SEED },
    );
  }, 60_000);

  it('POST /Users with random bodies: a 4xx creates nothing and queues no email; a 201 stores a valid user', async () => {
    const h = await seeded();
    await fc.assert(
      fc.asyncProperty(userBodies, async (user) => {
        const before = (await h.allUsers()).length;
        const invited = await invitations(h.store);
        const response = await h.scim.handle({
          method: 'POST',
          path: `${BASE}/Users`,
          headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/scim+json' },
          body: JSON.stringify(user),
          baseUrl: ORIGIN,
        });
        const what = `POST ${JSON.stringify(user).slice(0, 400)}`;
        const body = checkResponse(response, what);
        const count = (await h.allUsers()).length;
        if (response.status >= 400) {
          expect(count, what).toBe(before);
          expect(await invitations(h.store), what).toBe(invited);
          return;
        }
        expect(response.status, what).toBe(201);
        expect(count, what).toBe(before + 1);
        checkStoredUser(h.store.peek('tenant-a', body?.id) as Json, what);
        // Keep the tenant small so each run stays fast.
        await h.scim.handle({
          method: 'DELETE',
          path: `${BASE}/Users/${body?.id}`,
          headers: { authorization: `Bearer ${KEY_A}` },
          baseUrl: ORIGIN,
        });
      }),
      { numRuns: RUNS, ...SEED },
    );
  }, 60_000);

  it('PUT /Users/{id} with random bodies: a 4xx leaves every user as it was', async () => {
    const h = await seeded();
    const [adaId] = h.ids as [string];
    await fc.assert(
      fc.asyncProperty(userBodies, async (user) => {
        const before = await snapshot(h);
        const response = await h.scim.handle({
          method: 'PUT',
          path: `${BASE}/Users/${adaId}`,
          headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/scim+json' },
          body: JSON.stringify(user),
          baseUrl: ORIGIN,
        });
        const what = `PUT ${JSON.stringify(user).slice(0, 400)}`;
        checkResponse(response, what);
        if (response.status >= 400) expect(await snapshot(h), what).toBe(before);
        else checkStoredUser(h.store.peek('tenant-a', adaId) as Json, what);
      }),
      { numRuns: RUNS, ...SEED },
    );
  }, 60_000);
});

describe('fuzz: list queries', () => {
  it('GET /Users with random parameters: 200 with a consistent page, or 400', async () => {
    const h = await seeded();
    await fc.assert(
      fc.asyncProperty(queries, async (query) => {
        const response = await h.scim.handle({
          method: 'GET',
          path: `${BASE}/Users`,
          ...(query === undefined ? {} : { query }),
          headers: { authorization: `Bearer ${KEY_A}` },
          baseUrl: ORIGIN,
        });
        const what = `GET /Users?${JSON.stringify(query)?.slice(0, 300)}`;
        const body = checkResponse(response, what) as Json;
        expect([200, 400], what).toContain(response.status);
        if (response.status !== 200) return;
        expect(Array.isArray(body.Resources), what).toBe(true);
        expect(body.itemsPerPage, what).toBe(body.Resources.length);
        expect(body.Resources.length, what).toBeLessThanOrEqual(100);
        expect(body.totalResults, what).toBeLessThanOrEqual(2); // tenant A has two users
        expect(body.startIndex, what).toBeGreaterThanOrEqual(1);
        for (const user of body.Resources as Json[]) {
          // Tenant B's user never shows.
          expect(user.userName, what).not.toBe('carol@example.org');
          expect(user.id, what).not.toBe(h.ids[2]);
        }
      }),
      { numRuns: RUNS, ...SEED },
    );
  }, 60_000);
});
