import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimGroup } from '../../../src/schema/group-schema.js';
import { PostgresUserStore } from '../../../src/stores/postgres/index.js';
import { databaseUrl, makeUser, openServer, type Backend } from './harness.js';
import { GROUP_SCHEMA } from '../../../src/schema/urns.js';

const group = (id: string): ScimGroup => ({
  schemas: [GROUP_SCHEMA],
  id,
  displayName: id,
  meta: {
    resourceType: 'Group',
    created: '2025-01-01T00:00:00.000Z',
    lastModified: '2025-01-01T00:00:00.000Z',
    version: 'W/"1"',
  },
});

// Two pools on the server are two "processes"; PGlite runs one statement at a time, so these
// races exist only on a server.
describe.skipIf(!databaseUrl)('PostgreSQL group races between two processes (server)', () => {
  let backend: Backend;
  let one: PostgresUserStore;
  let two: PostgresUserStore;
  beforeAll(async () => {
    backend = await openServer(databaseUrl as string);
    one = backend.newStore();
    await one.migrate();
    two = new PostgresUserStore({ executor: backend.other, schema: backend.schema });
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('loses no membership when both add to one group at once', async () => {
    const users = Array.from({ length: 16 }, () => makeUser());
    for (const user of users) await one.create('t1', user);
    await one.groups.create('t1', group('g1'), []);
    await Promise.all(
      users.map((user, i) =>
        (i % 2 ? two : one).groups.addMembers('t1', 'g1', [{ value: user.id }]),
      ),
    );
    const got = await one.groups.get('t1', 'g1');
    expect(got?.members).toHaveLength(users.length);
    expect(got?.meta.version).toBe(`W/"${users.length + 1}"`);
  });

  it('leaves no membership of a user deleted while another process adds it', async () => {
    for (let round = 0; round < 10; round++) {
      const user = makeUser();
      await one.create('t2', user);
      const id = `g2-${round}`;
      await one.groups.create('t2', group(id), []);
      const [added] = await Promise.allSettled([
        two.groups.addMembers('t2', id, [{ value: user.id }]),
        one.delete('t2', user.id),
      ]);
      // Either the add came first (and the delete removed the membership), or it saw the
      // user gone (400): never a membership of a user that does not exist.
      if (added.status === 'rejected') expect(added.reason).toMatchObject({ status: 400 });
      expect((await one.groups.get('t2', id))?.members).toBeUndefined();
      const rows = await backend.executor.query(
        `SELECT 1 FROM "${backend.schema}".group_members WHERE tenant = 't2' AND member_id = $1`,
        [user.id],
      );
      expect(rows).toEqual([]);
    }
  });
});
