// Generators of hostile SCIM requests, shared by the in-process one (any-request-answers-scim.property.test.ts) and the
// HTTP-level one (test/e2e/http-fuzz.test.ts).
import fc from 'fast-check';
import type { ScimRequest } from '../../src/index.js';
import { BASE, KEY_A, KEY_B, PATCH_SCHEMA, USER_SCHEMA } from './harness.js';

export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const hostileStrings = fc.constantFrom(
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
export const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  hostileStrings,
);

export const emails = fc.oneof(
  fc.constantFrom('ada@example.org', 'ADA@EXAMPLE.ORG', 'bob@example.org', 'new@example.org'),
  fc.emailAddress(),
  fc.constant(`${'a'.repeat(242)}@example.org`), // 254 characters
  fc.constant(`${'a'.repeat(243)}@example.org`), // 255 characters
  text,
);

export const hugeNumbers = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  0.1,
  -1,
  0,
  2 ** 53,
  1e21,
);

export const jsonLeaf = fc.oneof(
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
export const hostileKey = fc.oneof(
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

export function objectOf(entries: Array<[string, unknown]>): Json {
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

export const { value: anyValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map(objectOf),
  ),
}));

export const multiValue = fc
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

export const plausibleValue = fc.oneof(
  anyValue,
  fc.array(multiValue, { maxLength: 3 }),
  multiValue,
  fc.record({ givenName: text, familyName: text }, { requiredKeys: [] }),
  fc.record({ value: text, $ref: text, displayName: text }, { requiredKeys: [] }),
);

export const attributeNames = fc.constantFrom(
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

export const patchPaths = fc.oneof(
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

export const operation = fc
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

export const patchBodies = fc.oneof(
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

export const userBodies = fc
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
export const rawBodies = fc.oneof(
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

export const bodies = fc.oneof(
  { weight: 3, arbitrary: userBodies.map((b) => JSON.stringify(b)) },
  { weight: 3, arbitrary: patchBodies.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: rawBodies },
  // A value a host's own body parser already produced.
  { weight: 2, arbitrary: fc.oneof(userBodies, patchBodies, anyValue) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

export const queryKeys = fc.constantFrom(
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
export const filterTexts = fc.oneof(
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
export const queryValues = fc.oneof(
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
export const queries = fc.oneof(
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

export const authorizations = fc.oneof(
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

export const contentTypes = fc.oneof(
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

export const etagJunk = fc.oneof(
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

export function headersOf(
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

export const headerSets = fc
  .tuple(authorizations, contentTypes, etagJunk, etagJunk, fc.boolean())
  .map(([a, c, m, n, u]) => headersOf(a, c, m, n, u));

// encodeURIComponent throws on a lone surrogate; such a segment goes through raw instead.
export function encodeLoosely(t: string): string {
  try {
    return encodeURIComponent(t);
  } catch {
    return t;
  }
}

export const idSegments = (ids: string[]) =>
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

export const paths = (ids: string[]) =>
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

export const methods = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('get', 'patch', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', ''),
  },
  { weight: 1, arbitrary: text },
);
