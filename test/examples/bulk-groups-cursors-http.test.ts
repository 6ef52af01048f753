// Groups in /Bulk and RFC 9865 cursor paging over HTTP on the example server, on the memory
// store, PGlite and the PostgreSQL server: what a host runs in production answers as the
// stores it develops on.
import { describe, expect, it } from 'vitest';
import { exampleStores, sendTo, serveDuringTests, type ExampleReply } from './example-stores.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const send = (url: string, method: string, body?: unknown): Promise<ExampleReply> =>
  sendTo(url, method, 'k1', body);

const user = (userName: string) => ({ schemas: [USER_SCHEMA], userName });
const group = (displayName: string, members: string[] = []) => ({
  schemas: [GROUP_SCHEMA],
  displayName,
  members: members.map((value) => ({ value })),
});
const idOf = (location: string) => location.slice(location.lastIndexOf('/') + 1);

const stores = exampleStores('bulk_groups');

for (const store of stores) {
  const { name, skip } = store;
  describe.skipIf(skip !== undefined)(
    `groups in /Bulk and cursor paging over HTTP (${name}${skip ? `; skipped: ${skip}` : ''})`,
    () => {
      const url = serveDuringTests(store);

      it('creates a group of users created in the same request (in any order), patches its members and deletes a group', async () => {
        const reply = await send(`${url()}/Bulk`, 'POST', {
          schemas: [BULK],
          Operations: [
            // The group comes first and names users created after it.
            {
              method: 'POST',
              path: '/Groups',
              bulkId: 'teachers',
              data: group('Teachers', ['bulkId:ada', 'bulkId:bob']),
            },
            { method: 'POST', path: '/Users', bulkId: 'ada', data: user('ada@example.org') },
            { method: 'POST', path: '/Users', bulkId: 'bob', data: user('bob@example.org') },
            { method: 'POST', path: '/Users', bulkId: 'cy', data: user('cy@example.org') },
            {
              method: 'PATCH',
              path: '/Groups/bulkId:teachers',
              data: {
                schemas: [PATCH],
                Operations: [
                  { op: 'add', path: 'members', value: [{ value: 'bulkId:cy' }] },
                  { op: 'remove', path: 'members', value: [{ value: 'bulkId:bob' }] },
                ],
              },
            },
            {
              method: 'POST',
              path: '/Groups',
              bulkId: 'temp',
              data: group('Temp', ['bulkId:ada']),
            },
            { method: 'DELETE', path: '/Groups/bulkId:temp' },
          ],
        });
        expect(reply.status).toBe(200);
        const ops = reply.body.Operations as {
          bulkId?: string;
          status: string;
          location: string;
        }[];
        expect(ops.map((o) => `${o.bulkId ?? '-'}:${o.status}`)).toEqual([
          'teachers:201',
          'ada:201',
          'bob:201',
          'cy:201',
          expect.stringMatching(/^-:20[04]$/),
          'temp:201',
          '-:204',
        ]);
        const [teachers, ada, bob, cy, , temp] = ops.map((o) => o.location) as string[];
        const read = await send(teachers as string, 'GET');
        expect(read.status).toBe(200);
        const members = (read.body.members as { value: string }[]).map((m) => m.value).sort();
        expect(members).toEqual([idOf(ada as string), idOf(cy as string)].sort());
        expect((await send(temp as string, 'GET')).status).toBe(404);
        // The User's readOnly `groups`, computed from the memberships Bulk wrote.
        const adaRead = await send(ada as string, 'GET');
        expect(adaRead.body.groups.map((g: { display: string }) => g.display)).toEqual([
          'Teachers',
        ]);
        expect((await send(bob as string, 'GET')).body.groups ?? []).toEqual([]);
      });

      it('counts a group failure against failOnErrors, keeps what ran before and runs nothing after', async () => {
        const reply = await send(`${url()}/Bulk`, 'POST', {
          schemas: [BULK],
          failOnErrors: 2,
          Operations: [
            { method: 'POST', path: '/Users', bulkId: 'kept', data: user('kept@example.org') },
            // A member that is no user of the tenant: the group is refused, as sent alone.
            {
              method: 'POST',
              path: '/Groups',
              bulkId: 'bad',
              data: group('Bad', ['no-such-user']),
            },
            // Refers to the failed group: refused without running.
            {
              method: 'PATCH',
              path: '/Groups/bulkId:bad',
              data: {
                schemas: [PATCH],
                Operations: [{ op: 'add', path: 'members', value: [{ value: 'bulkId:kept' }] }],
              },
            },
            { method: 'POST', path: '/Groups', bulkId: 'never', data: group('Never') },
          ],
        });
        expect(reply.status).toBe(200);
        const ops = reply.body.Operations as {
          status: string;
          location?: string;
          response?: { scimType?: string };
        }[];
        expect(ops.map((o) => o.status)).toEqual(['201', '400', '409']);
        expect(ops[1]?.response?.scimType).toBe('invalidValue');
        expect((await send(ops[0]?.location as string, 'GET')).status).toBe(200);
        const groups = await send(
          `${url()}/Groups?filter=${encodeURIComponent('displayName eq "Never" or displayName eq "Bad"')}`,
          'GET',
        );
        expect(groups.body.totalResults).toBe(0);
      });

      it('answers a load of POSTs (run several at once) as if run in turn, a userName sent twice taken by the first', async () => {
        const names = Array.from({ length: 40 }, (_, i) => `load${i}@example.org`);
        const Operations = names.map((name, i) => ({
          method: 'POST',
          path: '/Users',
          bulkId: `load${i}`,
          data: user(name),
        }));
        // The userNames of operations 3 and 7 again, in other letters, close enough to run beside them.
        Operations.splice(4, 0, {
          ...Operations[3]!,
          bulkId: 'again3',
          data: user('LOAD3@example.org'),
        });
        Operations.splice(10, 0, {
          ...Operations[7]!,
          bulkId: 'again7',
          data: user('Load7@Example.org'),
        });
        const reply = await send(`${url()}/Bulk`, 'POST', { schemas: [BULK], Operations });
        expect(reply.status).toBe(200);
        const ops = reply.body.Operations as { bulkId: string; status: string }[];
        expect(ops.map((o) => o.bulkId)).toEqual(Operations.map((o) => o.bulkId));
        expect(ops.filter((o) => o.status !== '201').map((o) => [o.bulkId, o.status])).toEqual([
          ['again3', '409'],
          ['again7', '409'],
        ]);
        const listed = await send(
          `${url()}/Users?filter=${encodeURIComponent('userName sw "load"')}&count=100`,
          'GET',
        );
        expect(listed.body.totalResults).toBe(40);
        expect(
          (listed.body.Resources as { userName: string }[]).map((u) => u.userName).sort(),
        ).toEqual([...names].sort());
      });

      it('pages users by cursor, advertised as RFC 9865 says, without skipping or repeating one while others are written', async () => {
        const spc = (await send(`${url()}/ServiceProviderConfig`, 'GET')).body;
        expect(spc.pagination).toMatchObject({ cursor: true, index: true });
        const created = await send(`${url()}/Bulk`, 'POST', {
          schemas: [BULK],
          Operations: Array.from({ length: 7 }, (_, i) => ({
            method: 'POST',
            path: '/Users',
            bulkId: `p${i}`,
            data: user(`page-${i}@example.org`),
          })),
        });
        const ids = (created.body.Operations as { location: string }[]).map((o) =>
          idOf(o.location),
        );
        const filter = encodeURIComponent('userName sw "page-"');
        const seen: string[] = [];
        let cursor = '';
        let pages = 0;
        for (;;) {
          const page = await send(
            `${url()}/Users?filter=${filter}&count=3&cursor=${encodeURIComponent(cursor)}`,
            'GET',
          );
          expect(page.status, JSON.stringify(page.body)).toBe(200);
          expect(page.body.startIndex).toBeUndefined();
          seen.push(...page.body.Resources.map((r: { id: string }) => r.id));
          if (pages++ === 0) {
            // Meanwhile: one not yet listed goes, one more arrives.
            expect((await send(`${url()}/Users/${ids[6]}`, 'DELETE')).status).toBe(204);
            expect(
              (await send(`${url()}/Users`, 'POST', user('page-new@example.org'))).status,
            ).toBe(201);
          }
          if (page.body.nextCursor === undefined) break;
          cursor = page.body.nextCursor as string;
          expect(pages).toBeLessThan(10);
        }
        expect(new Set(seen).size).toBe(seen.length);
        for (const id of ids.slice(0, 6)) expect(seen).toContain(id);
        expect(seen).not.toContain(ids[6]);
        // A cursor that was not issued here.
        const forged = await send(`${url()}/Users?cursor=bm90LWEtY3Vyc29y&count=3`, 'GET');
        expect([forged.status, forged.body.scimType]).toEqual([400, 'invalidCursor']);
      });
    },
  );
}
