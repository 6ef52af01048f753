import { describe, expect, it } from 'vitest';
import type { ScimUser, WriteEffects } from '../../src/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { setup, USER_SCHEMA } from './harness.js';
import { keysSentIn } from '../../src/core/host-types/unique-keys.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';

const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const post = (userName: string, bulkId?: string) => ({
  method: 'POST',
  path: '/Users',
  ...(bulkId === undefined ? {} : { bulkId }),
  data: { schemas: [USER_SCHEMA], userName },
});

const bulkBody = (operations: unknown[], failOnErrors?: number) => ({
  schemas: [BULK],
  Operations: operations,
  ...(failOnErrors === undefined ? {} : { failOnErrors }),
});

/**
 * A memory store whose creates take a while (longer for userNames starting with `slow`), and
 * that notes how many were under way at once and the order in which they were stored.
 */
class SlowStore extends MemoryUserStore {
  inFlight = 0;
  mostAtOnce = 0;
  readonly stored: string[] = [];

  override async create(tenant: string, user: ScimUser, effects?: WriteEffects): Promise<void> {
    this.inFlight++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.inFlight);
    try {
      await new Promise((resolve) =>
        setTimeout(resolve, user.userName.startsWith('slow') ? 60 : 5),
      );
      await super.create(tenant, user, effects);
      this.stored.push(user.userName);
    } finally {
      this.inFlight--;
    }
  }
}

const statuses = (reply: { body: { Operations: { status: string }[] } }) =>
  reply.body.Operations.map((op) => op.status);

describe('POST /Bulk runs independent POSTs together', () => {
  it('runs up to limits.bulkConcurrency POSTs at once, and answers in the order sent', async () => {
    const store = new SlowStore();
    const { request } = setup({ store, limits: { bulkConcurrency: 4 } });
    const names = Array.from({ length: 10 }, (_, i) => `user${i}@example.org`);
    const reply = await request('POST', '/Bulk', {
      body: bulkBody(names.map((name, i) => post(name, `u${i}`))),
    });
    expect(reply.status).toBe(200);
    expect(statuses(reply)).toEqual(names.map(() => '201'));
    expect(reply.body.Operations.map((op: { bulkId: string }) => op.bulkId)).toEqual(
      names.map((_, i) => `u${i}`),
    );
    expect(store.mostAtOnce).toBe(4);
    expect([...store.stored].sort()).toEqual([...names].sort());
  });

  it('runs one operation at a time with bulkConcurrency 1', async () => {
    const store = new SlowStore();
    const { request } = setup({ store, limits: { bulkConcurrency: 1 } });
    const names = ['slow-a@example.org', 'b@example.org', 'c@example.org'];
    const reply = await request('POST', '/Bulk', { body: bulkBody(names.map((n) => post(n))) });
    expect(statuses(reply)).toEqual(['201', '201', '201']);
    expect(store.mostAtOnce).toBe(1);
    expect(store.stored).toEqual(names);
  });

  it('gives a userName to the first POST that asks for it, whatever the case, as in turn', async () => {
    const store = new SlowStore();
    const { request, allUsers } = setup({ store });
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        post('slow@example.org'),
        post('other@example.org'),
        // The same userName in other letters, and a member name in other letters too: it must
        // wait for the slow first one and then find its userName taken.
        {
          method: 'POST',
          path: '/users',
          data: { schemas: [USER_SCHEMA], USERNAME: 'SLOW@example.org' },
        },
      ]),
    });
    expect(statuses(reply)).toEqual(['201', '201', '409']);
    expect(reply.body.Operations[2].response.scimType).toBe('uniqueness');
    expect((await allUsers()).map((u) => u.userName).sort()).toEqual([
      'other@example.org',
      'slow@example.org',
    ]);
  });

  it('runs no operation past the failure that reaches failOnErrors', async () => {
    const store = new SlowStore();
    const { request, allUsers } = setup({ store });
    const bad = { method: 'POST', path: '/Users', data: { schemas: [USER_SCHEMA] } };
    const reply = await request('POST', '/Bulk', {
      body: bulkBody(
        [post('slow@example.org'), bad, bad, post('d@example.org'), post('e@example.org')],
        2,
      ),
    });
    expect(statuses(reply)).toEqual(['201', '400', '400']);
    expect((await allUsers()).map((u) => u.userName)).toEqual(['slow@example.org']);
  });

  it('runs an operation that refers to a bulkId after the POST that creates it', async () => {
    const store = new SlowStore();
    const { request } = setup({ store });
    const reply = await request('POST', '/Bulk', {
      body: bulkBody([
        post('slow@example.org', 'ada'),
        post('b@example.org', 'bob'),
        {
          method: 'POST',
          path: '/Groups',
          bulkId: 'team',
          data: {
            schemas: [GROUP_SCHEMA],
            displayName: 'Team',
            members: [{ value: 'bulkId:ada' }, { value: 'bulkId:bob' }],
          },
        },
        post('c@example.org'),
      ]),
    });
    expect(statuses(reply)).toEqual(['201', '201', '201', '201']);
    const ada = reply.body.Operations[0].location.split('/').pop();
    const team = await request(
      'GET',
      `/Groups/${reply.body.Operations[2].location.split('/').pop()}`,
    );
    expect(team.body.members.map((m: { value: string }) => m.value)).toContain(ada);
  });

  it('refuses a bulkConcurrency that is not a whole number from 1', () => {
    for (const bulkConcurrency of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        createScim({
          store: new MemoryUserStore(),
          auth: { verifier: staticApiKeys([{ key: 'k', tenant: 't' }]) },
          limits: { bulkConcurrency },
        }),
      ).toThrow(/bulkConcurrency/);
    }
  });
});

describe('keysSentIn', () => {
  it('gives two bodies that could take one userName the same key, whatever the case', () => {
    const type = userResourceType();
    const a = keysSentIn({ schemas: [USER_SCHEMA], userName: 'Ada@Example.org' }, type);
    const b = keysSentIn({ schemas: [USER_SCHEMA], USERNAME: 'ada@example.ORG' }, type);
    expect(a.length).toBe(1);
    expect(b).toEqual(a);
    expect(keysSentIn({ schemas: [USER_SCHEMA], userName: 'bob@example.org' }, type)).not.toEqual(
      a,
    );
  });
});
