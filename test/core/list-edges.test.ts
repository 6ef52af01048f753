// Listing at its edges: count and startIndex extremes, filters on every attribute type, and
// tenant isolation under compound filters.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, KEY_B, USER_SCHEMA, setup } from './harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

describe('listing edges', () => {
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

describe('filters on every attribute type', () => {
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

describe('tenant isolation under compound filters', () => {
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
