// Deleting a user (or a group that is itself a member) removes it from every group it was in:
// the log records one `group.member_removed` per group, in the same atomic step as the delete,
// on every bundled store, for DELETE, Bulk DELETE and `scim.tenants.delete`; `scim.on`
// listeners hear the same events in the same order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedEvent, ScimEvent } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { KEY_B, setup } from '../core/harness.js';
import { has, readUntil } from './read-feed.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';

// The events from the deletion of `id` on: the deletion, then what it removed.
const fromDeletion = (events: readonly LoggedEvent[], id: string) =>
  events.slice(events.findIndex((e) => e.type.endsWith('.deleted') && e.data.id === id));

const removal = (e: LoggedEvent) => [e.type, e.data.groupId, e.data.userId, e.data.memberType];

// What `removal` shows of a logged event, of an event a `scim.on` listener heard.
const heardRemoval = (e: ScimEvent) =>
  'member' in e ? [e.type, e.groupId, e.member.value, e.member.type] : [e.type, ...NO_MEMBER];
const NO_MEMBER = [undefined, undefined, undefined];

describe.each(everyStore)(
  'a deleted member leaves its groups, in the log, on $name',
  ({ open }) => {
    let opened: OpenedStore;
    let h: ReturnType<typeof setup>;
    const heard: ScimEvent[] = [];
    // What the listener heard of `tenant`, to hold against the tenant's whole log.
    const heardOf = (tenant: string) => heard.filter((e) => e.tenant === tenant).map(heardRemoval);

    beforeAll(async () => {
      opened = await open();
      h = setup({ store: opened.store });
      h.scim.on((event) => heard.push(event));
    }, 60_000);
    afterAll(() => opened?.close());

    async function group(displayName: string, members: string[], key?: string): Promise<string> {
      const reply = await h.request('POST', '/Groups', {
        body: {
          schemas: [GROUP_SCHEMA],
          displayName,
          members: members.map((value) => ({ value })),
        },
        ...(key === undefined ? {} : { key }),
      });
      expect(reply.status).toBe(201);
      return reply.body.id as string;
    }

    it('records a group.member_removed per group a deleted user was in, after user.deleted', async () => {
      const ada = await h.createUser('leaver@example.org');
      const bob = await h.createUser('stayer@example.org');
      const first = await group('Class 1', [ada.id, bob.id]);
      const second = await group('Class 2', [ada.id]);
      // A group that holds Ada only through a nested group loses no member of its own.
      await group('School', [second]);
      const other = await group('Other', [bob.id]);
      expect((await h.request('DELETE', `/Users/${ada.id}`)).status).toBe(204);

      const logged = await readUntil(h.scim, has('user.deleted', ada.id));
      expect(heardOf('tenant-a')).toEqual(logged.map(removal));
      const events = fromDeletion(logged, ada.id);
      const [first0, second0] = [first, second].sort();
      expect(events.map(removal)).toEqual([
        ['user.deleted', undefined, undefined, undefined],
        ['group.member_removed', first0, ada.id, 'User'],
        ['group.member_removed', second0, ada.id, 'User'],
      ]);
      expect(events[1]?.data).toMatchObject({ id: first0, resourceType: 'Group' });
      expect(new Set(events.map((e) => e.id)).size).toBe(3);
      expect(events.every((e) => e.occurredAt === events[0]?.occurredAt)).toBe(true);
      // The store removed exactly those memberships.
      const kept = await h.request('GET', `/Groups/${first}`);
      expect(kept.body.members).toEqual([expect.objectContaining({ value: bob.id })]);
      expect((await h.request('GET', `/Groups/${other}`)).body.members).toHaveLength(1);
    });

    it('records none for a user in no group, and the same for a Bulk DELETE as for a DELETE', async () => {
      const alone = await h.createUser('alone@example.org');
      const member = await h.createUser('bulk-member@example.org');
      const g = await group('Bulk class', [member.id]);
      const reply = await h.request('POST', '/Bulk', {
        body: {
          schemas: [BULK],
          Operations: [
            { method: 'DELETE', path: `/Users/${alone.id}` },
            { method: 'DELETE', path: `/Users/${member.id}` },
          ],
        },
      });
      expect((reply.body.Operations as { status: string }[]).map((op) => op.status)).toEqual([
        '204',
        '204',
      ]);
      const logged = await readUntil(h.scim, has('user.deleted', member.id));
      expect(heardOf('tenant-a')).toEqual(logged.map(removal));
      const events = fromDeletion(logged, alone.id);
      expect(events.map(removal)).toEqual([
        ['user.deleted', undefined, undefined, undefined],
        ['user.deleted', undefined, undefined, undefined],
        ['group.member_removed', g, member.id, 'User'],
      ]);
    });

    it("records the groups a deleted group was a member of, not the deleted group's own members", async () => {
      const pupil = await h.createUser('pupil@example.org');
      const child = await group('Child', [pupil.id]);
      const parent = await group('Parent', [child]);
      expect((await h.request('DELETE', `/Groups/${child}`)).status).toBe(204);
      const logged = await readUntil(h.scim, has('group.deleted', child));
      expect(heardOf('tenant-a')).toEqual(logged.map(removal));
      const events = fromDeletion(logged, child);
      expect(events.map(removal)).toEqual([
        ['group.deleted', undefined, undefined, undefined],
        ['group.member_removed', parent, child, 'Group'],
      ]);
    });

    it('scim.tenants.delete records what each deletion removed', async () => {
      const user = await h.createUser('tenant-b-user@example.org', {}, KEY_B);
      const child = await group('B child', [user.id], KEY_B);
      const parent = await group('B parent', [child], KEY_B);
      await h.scim.tenants.delete('tenant-b');
      const events = await readUntil(h.scim, has('user.deleted', user.id), 'tenant-b');
      expect(heardOf('tenant-b')).toEqual(events.map(removal));
      const deletions = events.filter((e) => e.type.endsWith('.deleted')).map((e) => e.data.id);
      // Groups go first, in the order the store lists them: the child's deletion removes it from
      // the parent only while the parent is still there; the user's groups are gone by then.
      const childFirst = deletions.indexOf(child) < deletions.indexOf(parent);
      const removals = events.filter((e) => e.type === 'group.member_removed');
      expect(removals.map(removal)).toEqual(
        childFirst ? [['group.member_removed', parent, child, 'Group']] : [],
      );
      expect(deletions.at(-1)).toBe(user.id);
    });
  },
);

describe('a deleted member leaves its groups, heard by scim.on, on a store without a log', () => {
  it('tells listeners of each membership a user or a nested group lost', async () => {
    const h = setup({ store: new MemoryUserStore({ events: false }), mail: {} });
    const heard: ScimEvent[] = [];
    h.scim.on((event) => heard.push(event));
    const post = async (displayName: string, members: string[]) => {
      const reply = await h.request('POST', '/Groups', {
        body: {
          schemas: [GROUP_SCHEMA],
          displayName,
          members: members.map((value) => ({ value })),
        },
      });
      expect(reply.status).toBe(201);
      return reply.body.id as string;
    };
    const ada = await h.createUser('ada@example.org');
    const [first, second] = [await post('Class 1', [ada.id]), await post('Class 2', [ada.id])];
    const parent = await post('Parent', [second]);
    heard.length = 0;
    expect((await h.request('DELETE', `/Users/${ada.id}`)).status).toBe(204);
    expect((await h.request('DELETE', `/Groups/${second}`)).status).toBe(204);
    const [first0, second0] = [first, second].sort();
    expect(heard.map(heardRemoval)).toEqual([
      ['user.deleted', ...NO_MEMBER],
      ['group.member_removed', first0, ada.id, 'User'],
      ['group.member_removed', second0, ada.id, 'User'],
      ['group.deleted', ...NO_MEMBER],
      ['group.member_removed', parent, second, 'Group'],
    ]);
    await h.scim.close();
  });
});
