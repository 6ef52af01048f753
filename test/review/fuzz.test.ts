// Property-based fuzzing of `scim.handle`: whatever a client sends, scimkit answers a SCIM
// response (never a 500 or a crash), and a refused write changes nothing (DESIGN.md §6).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScimRequest, ScimResponse } from '../../src/index.js';
import { BASE, KEY_A, KEY_B, ORIGIN, PATCH_SCHEMA, USER_SCHEMA, setup } from '../core/harness.js';

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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

/** Every stored user keeps the invariants of DESIGN.md §3. */
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

// ---------------------------------------------------------------- generators

const hostileStrings = fc.constantFrom(
  '',
  ' ',
  '..',
  '.',
  '%',
  '%zz',
  '%00',
  '%2e%2e',
  '%2F',
  '\u0000',
  '\uD800',
  '\uFFFF',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'x'.repeat(10_000),
  '\u{1F600}'.repeat(200),
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e400',
  '9'.repeat(400),
  '"',
  "'",
  '\\',
  '${x}',
  '<script>',
  '\r\n',
);
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  hostileStrings,
);

const emails = fc.oneof(
  fc.constantFrom('ada@example.org', 'ADA@EXAMPLE.ORG', 'bob@example.org', 'new@example.org'),
  fc.emailAddress(),
  fc.constant(`${'a'.repeat(242)}@example.org`), // 254 characters
  fc.constant(`${'a'.repeat(243)}@example.org`), // 255 characters
  text,
);

const hugeNumbers = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  0.1,
  -1,
  0,
  2 ** 53,
  1e21,
);

const jsonLeaf = fc.oneof(
  fc.boolean(),
  fc.constantFrom('True', 'False', 'true', 'TRUE', 'yes'),
  hugeNumbers,
  fc.integer(),
  fc.constant(null),
  text,
  emails,
);

// A JSON value with hostile keys and a little depth; ordinary objects so JSON.stringify keeps
// them (an own "__proto__" key is added as data by defineProperty).
const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'toJSON',
    'value',
    'primary',
    'type',
    'display',
    '$ref',
    'givenName',
    'userName',
    'active',
    'emails',
    ENTERPRISE,
    `${ENTERPRISE}:manager`,
    'name.givenName',
    'urn:x:y',
    'id',
    'meta',
    'schemas',
    'password',
  ),
  fc.string({ maxLength: 12 }),
);

function objectOf(entries: Array<[string, unknown]>): Json {
  const out: Json = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

const { value: anyValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map(objectOf),
  ),
}));

const multiValue = fc
  .record(
    {
      value: fc.oneof(emails, text, fc.integer()),
      type: fc.constantFrom('work', 'home', 'other', 'WORK', 'mobile'),
      primary: fc.oneof(fc.boolean(), fc.constantFrom('True', 'False', 'x')),
      display: text,
    },
    { requiredKeys: [] },
  )
  .map((o) => o as Json);

const plausibleValue = fc.oneof(
  anyValue,
  fc.array(multiValue, { maxLength: 3 }),
  multiValue,
  fc.record({ givenName: text, familyName: text }, { requiredKeys: [] }),
  fc.record({ value: text, $ref: text, displayName: text }, { requiredKeys: [] }),
);

const attributeNames = fc.constantFrom(
  'userName',
  'USERNAME',
  'active',
  'displayName',
  'nickName',
  'title',
  'externalId',
  'name',
  'emails',
  'phoneNumbers',
  'roles',
  'groups',
  'addresses',
  'x509Certificates',
  'entitlements',
  'photos',
  'ims',
  'locale',
  'timezone',
  'profileUrl',
  'preferredLanguage',
  'userType',
  'password',
  'id',
  'meta',
  'schemas',
  ENTERPRISE,
  ACCOUNT,
  '__proto__',
  'constructor',
);

const patchPaths = fc.oneof(
  attributeNames,
  fc.constantFrom(
    'name.givenName',
    'name.familyName',
    'name.__proto__',
    'emails[type eq "work"].value',
    'emails[type eq "work"]',
    'emails[value co "@"].primary',
    'emails[not (type eq "x")]',
    'emails[type eq "work" or primary eq true].display',
    'phoneNumbers[type eq "mobile"].value',
    'roles[value eq "teacher"]',
    'roles[value eq "teacher"].display',
    'addresses[type eq "work"].streetAddress',
    'meta.version',
    'meta.lastModified',
    'groups.value',
    `${ENTERPRISE}:manager`,
    `${ENTERPRISE}:manager.value`,
    `${ENTERPRISE}:employeeNumber`,
    `${ENTERPRISE}:manager.__proto__`,
    `${ACCOUNT}:status`,
    'urn:ietf:params:scim:schemas:core:2.0:User:userName',
    'urn:ietf:params:scim:schemas:core:2.0:User:name.givenName',
    'emails[',
    'emails]',
    'emails[type eq]',
    'emails[type eq "a"][type eq "b"]',
    'name..givenName',
    '.',
    '',
    ' ',
    'a'.repeat(5000),
    `emails[${'('.repeat(200)}type eq "x"${')'.repeat(200)}]`,
  ),
  text,
);

const operation = fc
  .record(
    {
      op: fc.oneof(
        fc.constantFrom('add', 'remove', 'replace', 'Add', 'REPLACE', 'Remove', 'move', 'copy'),
        text,
        fc.integer(),
      ),
      path: fc.oneof(patchPaths, fc.integer(), fc.constant(null)),
      value: plausibleValue,
    },
    { requiredKeys: [] },
  )
  .map((o) => o as Json);

const patchBodies = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(operation, { maxLength: 5 })
      .map((ops) => ({ schemas: [PATCH_SCHEMA], Operations: ops })),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        schemas: fc.oneof(fc.constant([PATCH_SCHEMA]), anyValue),
        Operations: fc.oneof(fc.array(operation, { maxLength: 3 }), anyValue),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: anyValue },
);

const userBodies = fc
  .tuple(
    fc.oneof(
      fc.constant([USER_SCHEMA]),
      fc.constant([USER_SCHEMA, ENTERPRISE]),
      fc.constant([USER_SCHEMA, ACCOUNT]),
      fc.array(fc.oneof(fc.constantFrom(USER_SCHEMA, ENTERPRISE, 'urn:x'), text), { maxLength: 3 }),
      anyValue,
    ),
    emails,
    fc.array(fc.tuple(attributeNames, plausibleValue), { maxLength: 5 }),
  )
  .map(([schemas, userName, extra]) =>
    objectOf([['schemas', schemas], ['userName', userName], ...extra]),
  );

/** Bodies as raw text or bytes: malformed, huge, deep, hostile. */
const rawBodies = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.uint8Array({ maxLength: 40 }),
  fc.constantFrom(
    '',
    '   ',
    'null',
    '[]',
    '{}',
    '"x"',
    '1e999999',
    '-',
    '{"a":',
    '\uFEFF{}',
    '\uFEFF',
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    `{"schemas":["${USER_SCHEMA}"],"userName":"p@example.org","__proto__":{"polluted":1}}`,
    `{"schemas":["${USER_SCHEMA}"],"userName":"p@example.org","name":{"__proto__":{"polluted":1}}}`,
    `{"schemas":["${USER_SCHEMA}"],"userName":"p@example.org","constructor":{"prototype":{"polluted":1}}}`,
    `{"schemas":["${PATCH_SCHEMA}"],"Operations":[{"op":"add","value":{"__proto__":{"polluted":1}}}]}`,
    `{"schemas":["${PATCH_SCHEMA}"],"Operations":[{"op":"add","path":"__proto__","value":{"polluted":1}}]}`,
    `{"schemas":["${USER_SCHEMA}"],"userName":"${'a'.repeat(2 * 1024 * 1024)}@example.org"}`,
  ),
  fc.constant(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])),
  fc.constant(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])),
  fc.constant(new Uint8Array([0xed, 0xa0, 0x80])), // an encoded lone surrogate
);

const bodies = fc.oneof(
  { weight: 3, arbitrary: userBodies.map((b) => JSON.stringify(b)) },
  { weight: 3, arbitrary: patchBodies.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: rawBodies },
  // A value a host's own body parser already produced.
  { weight: 2, arbitrary: fc.oneof(userBodies, patchBodies, anyValue) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const queryKeys = fc.constantFrom(
  'startIndex',
  'count',
  'filter',
  'sortBy',
  'sortOrder',
  'attributes',
  'excludedAttributes',
  'StartIndex',
  '__proto__',
);
const filterTexts = fc.oneof(
  fc.constantFrom(
    'userName eq "ada@example.org"',
    'userName eq "ADA@example.org" or userName eq "bob@example.org"',
    'not (userName eq "ada@example.org")',
    'emails[type eq "work" and value co "@"]',
    'emails.value sw "a"',
    'name.givenName pr',
    'meta.created gt "2020-01-01T00:00:00Z"',
    'meta.lastModified ge "not a date"',
    'active eq true',
    'active eq "true"',
    'active gt 1',
    'id eq 1',
    'userName eq 1e999',
    'userName eq -0',
    'userName eq null',
    'externalId eq "x"',
    `${ENTERPRISE}:manager.value eq "x"`,
    `${ACCOUNT}:status eq "Invited"`,
    'roles[value eq "a"] or groups.value eq "b"',
    'x509Certificates.value eq "x"',
    'userName eq "a" and',
    'userName eq',
    '(((',
    ')',
    '"',
    'userName eq "\\u0000"',
    'userName eq "\\uD800"',
    'userName co ""',
    '__proto__ eq "x"',
    'constructor.prototype pr',
    'emails[value[type eq "x"]]',
    `${'('.repeat(60)}userName pr${')'.repeat(60)}`,
    `${'not ('.repeat(60)}userName pr${')'.repeat(60)}`,
    Array.from({ length: 300 }, (_, i) => `userName eq "u${i}@x.org"`).join(' or '),
  ),
  text,
);
const queryValues = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '100',
    '101',
    '1.5',
    '1e3',
    '+3',
    ' 2',
    '0x10',
    '',
    '99999999999999999999999',
    '-99999999999999999999999',
    'ascending',
    'DESCENDING',
    'userName',
    'name.givenName',
    'emails',
    'meta.created',
    'urn:',
    `${ENTERPRISE}:manager`,
    'userName,emails',
    ',,,',
    'x'.repeat(5000),
  ),
  filterTexts,
  text,
);
const queries = fc.oneof(
  fc.array(fc.tuple(queryKeys, queryValues), { maxLength: 4 }).map((pairs) => {
    const params = new URLSearchParams();
    for (const [k, v] of pairs) params.append(k, v);
    return params.toString();
  }),
  fc
    .array(fc.tuple(queryKeys, queryValues), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  fc
    .array(fc.tuple(queryKeys, fc.oneof(queryValues, fc.array(queryValues, { maxLength: 2 }))), {
      maxLength: 3,
    })
    .map((pairs) => objectOf(pairs) as ScimRequest['query']),
  text,
  fc.constantFrom('?', '?&&&', '%', '%%%', 'filter=%zz', 'count=%', '?count=1&count=2'),
  fc.constant(undefined),
);

const authorizations = fc.oneof(
  { weight: 8, arbitrary: fc.constant(`Bearer ${KEY_A}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'Bearer',
      'Bearer ',
      `bearer ${KEY_A}`,
      `BEARER\t${KEY_A}`,
      `Bearer ${KEY_A} extra`,
      `Bearer  ${KEY_B}`,
      `Basic ${KEY_A}`,
      KEY_A,
      'Bearer \u0000',
      `Bearer ${'k'.repeat(10_000)}`,
      [`Bearer ${KEY_A}`, `Bearer ${KEY_B}`],
      [] as string[],
    ),
  },
  { weight: 1, arbitrary: text.map((t) => `Bearer ${t}`) },
);

const contentTypes = fc.oneof(
  fc.constantFrom(
    undefined,
    'application/scim+json',
    'application/json',
    'Application/SCIM+JSON; charset=utf-8',
    'application/json;charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    '',
    ';',
    'application/scim+json;;;',
    'application/json, text/plain',
    ['application/json', 'text/plain'],
  ),
  text,
);

const etagJunk = fc.oneof(
  fc.constantFrom(
    undefined,
    '*',
    'W/"1"',
    '"1"',
    'W/',
    '',
    ',',
    ' , ,',
    'W/"1", W/"2"',
    '\u0000',
    'W/"' + 'x'.repeat(5000) + '"',
  ),
  text,
);

function headersOf(
  authorization: string | string[] | undefined,
  contentType: string | string[] | undefined,
  ifMatch: string | undefined,
  ifNoneMatch: string | undefined,
  upper: boolean,
): ScimRequest['headers'] {
  const headers: Record<string, string | string[]> = {};
  const set = (name: string, value: string | string[] | undefined) => {
    if (value !== undefined) headers[upper ? name.toUpperCase() : name] = value;
  };
  set('authorization', authorization);
  set('content-type', contentType);
  set('if-match', ifMatch);
  set('if-none-match', ifNoneMatch);
  return headers;
}

const headerSets = fc
  .tuple(authorizations, contentTypes, etagJunk, etagJunk, fc.boolean())
  .map(([a, c, m, n, u]) => headersOf(a, c, m, n, u));

// encodeURIComponent throws on a lone surrogate; such a segment goes through raw instead.
function encodeLoosely(t: string): string {
  try {
    return encodeURIComponent(t);
  } catch {
    return t;
  }
}

const idSegments = (ids: string[]) =>
  fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom(...ids).map((id) => id.toUpperCase()),
    fc
      .constantFrom(...ids)
      .map((id) => encodeURIComponent(id).replace(/./g, (c) => `%${c.charCodeAt(0).toString(16)}`)),
    hostileStrings,
    text.map(encodeLoosely),
    text,
  );

const paths = (ids: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: idSegments(ids).map((id) => `${BASE}/Users/${id}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        `${BASE}/Users`,
        `${BASE}/Users/`,
        `${BASE}/users`,
        `${BASE}//Users//`,
        `${BASE}/Users/.search`,
        `${BASE}/Users/.SEARCH`,
        `${BASE}/ServiceProviderConfig`,
        `${BASE}/ServiceProviderConfig/x`,
        `${BASE}/ResourceTypes`,
        `${BASE}/ResourceTypes/User`,
        `${BASE}/ResourceTypes/__proto__`,
        `${BASE}/Schemas`,
        `${BASE}/Schemas/${USER_SCHEMA}`,
        `${BASE}/Schemas/__proto__`,
        `${BASE}/Schemas/constructor`,
        `${BASE}/Schemas/toString`,
        `${BASE}/Bulk`,
        `${BASE}/Me`,
        `${BASE}/Groups/1`,
        `${BASE}`,
        `${BASE}/`,
        `${BASE}/__proto__`,
        `${BASE}/constructor`,
        `${BASE}/toString`,
        `${BASE}/hasOwnProperty`,
        `${BASE}/Users/a/b`,
        `${BASE}/../Users`,
        `${BASE}/Users/../Users`,
        `${BASE}x/Users`,
        '/Users',
        '',
        '/',
        `${BASE}/${'x'.repeat(100_000)}`,
      ),
    },
    { weight: 1, arbitrary: text.map((t) => `${BASE}/${t}`) },
    { weight: 1, arbitrary: text.map((t) => `${BASE}/Schemas/${t}`) },
  );

const methods = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('get', 'patch', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', ''),
  },
  { weight: 1, arbitrary: text },
);

// ---------------------------------------------------------------- properties

let pollutedBefore: unknown;
afterEach(() => {
  // Nothing a client sends may reach Object.prototype.
  expect(({} as Json).polluted).toBe(pollutedBefore);
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

async function seeded() {
  const h = setup({ onError: () => undefined });
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
function snapshot(h: Awaited<ReturnType<typeof seeded>>): string {
  const tenants = ['tenant-a', 'tenant-b'];
  const all: Json = {};
  for (const t of tenants) {
    for (const id of h.ids) all[`${t}/${id}`] = h.store.peek(t, id);
  }
  return JSON.stringify({ all, outbox: h.store.outboxSnapshot().length });
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
          const before = snapshot(h);
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
            expect(snapshot(h), `${what}: refused, so nothing changes`).toBe(before);
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
        const outbox = h.store.outboxSnapshot().length;
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
          expect(h.store.outboxSnapshot().length, what).toBe(outbox);
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
        const before = snapshot(h);
        const response = await h.scim.handle({
          method: 'PUT',
          path: `${BASE}/Users/${adaId}`,
          headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/scim+json' },
          body: JSON.stringify(user),
          baseUrl: ORIGIN,
        });
        const what = `PUT ${JSON.stringify(user).slice(0, 400)}`;
        checkResponse(response, what);
        if (response.status >= 400) expect(snapshot(h), what).toBe(before);
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
