// The memory stores' work budget for a list's filter and sort (`maxFilterWork`): what a client
// sees over HTTP. The PostgreSQL store evaluates filters in SQL and has no such budget.
import { describe, expect, it } from 'vitest';
import { defineAttribute, defineSchema } from '../../src/index.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import { setup, type Reply } from './harness.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const long = (i: number, length: number) => `Élève-Ωμέγα-${i}-`.padEnd(length, 'é');
const list = (request: ReturnType<typeof setup>['request'], path: string, query: string) =>
  request('GET', path, { query });
const filterQuery = (filter: string, extra = '') =>
  `filter=${encodeURIComponent(filter)}${extra && `&${extra}`}`;
// `count` `co` terms over `path`, none of which can match: every one is tested on every value.
const coTerms = (path: string, count: number) =>
  Array.from({ length: count }, (_, k) => `${path} co "ø${k}"`).join(' or ');

function expectRefused(reply: Reply): void {
  expect(reply.status).toBe(400);
  expect(reply.body.scimType).toBe('tooMany');
  expect(reply.body.detail).toMatch(/units of work \(maxFilterWork\)/);
}

describe('maxFilterWork on the memory store', () => {
  it('refuses a filter of many `co` terms over long non-ASCII multi-valued attributes', async () => {
    const { request, createUser } = setup();
    const roles = Array.from({ length: 5_000 }, (_, i) => ({ value: long(i, 40) }));
    for (const name of ['ada', 'grace', 'edsger'])
      await createUser(`${name}@example.org`, { roles });
    const filter = coTerms('roles.value', 90);
    expect(filter.length).toBeLessThanOrEqual(4096);
    expectRefused(await list(request, '/Users', filterQuery(filter)));
    // The search form answers alike.
    expectRefused(
      await request('POST', '/Users/.search', {
        body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], filter },
      }),
    );
    // A fair filter over the same users is answered.
    const fair = await list(request, '/Users', filterQuery('roles.value co "Ωμέγα-42-"'));
    expect(fair.status).toBe(200);
    expect(fair.body.totalResults).toBe(3);
  });

  it('answers ordinary scans and index lookups under the default budget', async () => {
    const { request, createUser } = setup();
    for (let i = 0; i < 300; i++)
      await createUser(`user${i}@example.org`, { displayName: long(i, 60), title: `T${i % 7}` });
    const scan = await list(
      request,
      '/Users',
      filterQuery(
        'userName co "example" and (title eq "T3" or displayName sw "élève-ωμέγα-299-")',
        'sortBy=displayName',
      ),
    );
    expect(scan.status).toBe(200);
    // 43 users have title T3 (i % 7 = 3); user 299 has T5 and that displayName.
    expect(scan.body.totalResults).toBe(44);
    const lookups = Array.from({ length: 60 }, (_, i) => `userName eq "user${i}@example.org"`);
    const indexed = await list(request, '/Users', filterQuery(lookups.join(' or ')));
    expect(indexed.status).toBe(200);
    expect(indexed.body.totalResults).toBe(60);
  });

  it('counts the sort: keys read and compared, over a budget the store sets', async () => {
    const store = new MemoryUserStore({ maxFilterWork: 100_000 });
    const { request, createUser } = setup({ store });
    for (let i = 0; i < 20; i++)
      await createUser(`u${i}@example.org`, { displayName: long(i, 1_000) });
    expectRefused(await list(request, '/Users', 'sortBy=displayName'));
    // A cursor page reads every match in order too.
    expectRefused(await list(request, '/Users', 'sortBy=displayName&cursor=&count=5'));
    // Index-paged lists cost nothing, whatever the users hold.
    const plain = await list(request, '/Users', '');
    expect(plain.status).toBe(200);
    expect(plain.body.totalResults).toBe(20);
    const short = await list(request, '/Users', 'sortBy=userName');
    expect(short.status).toBe(200);
    expect(short.body.Resources[0].userName).toBe('u0@example.org');
  });

  it('counts group filters, members included', async () => {
    const store = new MemoryUserStore({ maxFilterWork: 100_000 });
    const { request, createUser } = setup({ store });
    const users = [];
    for (let i = 0; i < 30; i++) users.push(await createUser(`m${i}@example.org`));
    const members = users.map((u) => ({ value: u.id }));
    for (let g = 0; g < 40; g++) {
      const created = await request('POST', '/Groups', {
        body: { schemas: [GROUP], displayName: `Group ${g}`, members },
      });
      expect(created.status).toBe(201);
    }
    expectRefused(await list(request, '/Groups', filterQuery(coTerms('members.value', 10))));
    const fair = await list(request, '/Groups', filterQuery('displayName eq "Group 7"'));
    expect(fair.status).toBe(200);
    expect(fair.body.totalResults).toBe(1);
  });

  it("counts filters over a host's resource type on MemoryResourceStore", async () => {
    const schema = defineSchema({
      id: 'urn:example:params:scim:schemas:district:2.0:Room',
      name: 'Room',
      description: 'A room',
      attributes: [defineAttribute('displayName', 'string', { required: true })],
    });
    const store = new MemoryResourceStore({ maxFilterWork: 100_000 });
    const { request } = setup({
      resourceTypes: [{ name: 'Room', endpoint: '/Rooms', schema, store }],
    });
    for (let i = 0; i < 20; i++) {
      const created = await request('POST', '/Rooms', {
        body: { schemas: [schema.id], displayName: long(i, 200) },
      });
      expect(created.status).toBe(201);
    }
    expectRefused(await list(request, '/Rooms', filterQuery(coTerms('displayName', 5))));
    // The scan alone fits; the scan and the sort together do not.
    expect((await list(request, '/Rooms', filterQuery('displayName co "ωμέγα"'))).status).toBe(200);
    expectRefused(
      await list(request, '/Rooms', filterQuery('displayName co "ωμέγα"', 'sortBy=displayName')),
    );
    const fair = await list(request, '/Rooms', filterQuery('displayName sw "élève-ωμέγα-3-"'));
    expect(fair.status).toBe(200);
    expect(fair.body.totalResults).toBe(1);
  });

  it('refuses a maxFilterWork that is not a number > 0', () => {
    expect(() => new MemoryUserStore({ maxFilterWork: 0 })).toThrow(/maxFilterWork/);
    expect(() => new MemoryResourceStore({ maxFilterWork: Number.NaN })).toThrow(/maxFilterWork/);
    expect(() => new MemoryUserStore({ maxFilterWork: Infinity })).not.toThrow();
  });
});
