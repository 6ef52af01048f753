// `scim.events.subscribe` as a host calls it: the service's own store log and subscription
// state, the events of its writes delivered, nothing once `scim.close()` has stopped it.
import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createScim } from '../../src/index.js';
import { staticApiKeys } from '../../src/index.js';
import { patchBody, setup } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

describe('scim.events.subscribe', () => {
  it('delivers the events of the service writes to a durable subscriber', async () => {
    const { scim, createUser } = setup();
    const seen: LoggedEvent[] = [];
    const subscription = scim.events.subscribe('audit', async (event) => {
      seen.push(event);
    });
    const id = (await createUser('ada@example.com')).id as string;
    await subscription.drain();
    expect(seen.map((e) => [e.type, e.tenant, e.data.id])).toContainEqual([
      'user.created',
      'tenant-a',
      id,
    ]);
    await scim.close();
    expect(() => scim.events.subscribe('late', async () => undefined)).toThrow(/closed/);
  });

  it('is woken by a write of its own process, without waiting for its poll', async () => {
    const { scim, createUser } = setup();
    const seen: string[] = [];
    scim.events.subscribe('wake', async (event) => void seen.push(event.type), {
      pollIntervalMs: 3_600_000,
    });
    await createUser('grace@example.com');
    for (let i = 0; i < 200 && !seen.includes('user.created'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toContain('user.created');
    await scim.close();
  });

  it('wakes a subscriber of some types for its types only, and never misses one', async () => {
    const store = new MemoryUserStore();
    const log = store.events as NonNullable<typeof store.events>;
    const { scim, createUser, request } = setup({ store });
    const seen: string[] = [];
    const hourly = { pollIntervalMs: 3_600_000 };
    const removals = scim.events.subscribe(
      'removals',
      async (event) => void seen.push(`${event.type}:${event.data.userId ?? event.data.id}`),
      { ...hourly, types: ['user.deactivated', 'group.member_removed'] },
    );
    await removals.drain();
    const alice = (await createUser('alice@example.com')).id as string;
    const group = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Class 4B', members: [{ value: alice }] },
    });
    expect(group.status).toBe(201);
    await removals.drain();
    // Writes of other types leave this subscriber asleep: it reads nothing.
    let reads = 0;
    const list = log.list.bind(log);
    log.list = async (query) => {
      reads++;
      return await list(query);
    };
    for (let i = 0; i < 5; i++)
      await request('PATCH', `/Users/${alice}`, {
        body: patchBody({ op: 'replace', path: 'displayName', value: `Alice ${i}` }),
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(0);
    // Its types wake it, one found by the store inside a delete among them, without a drain.
    const bob = (await createUser('bob@example.com', { active: true })).id as string;
    await request('PATCH', `/Users/${bob}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    await request('DELETE', `/Users/${alice}`);
    const expected = [`user.deactivated:${bob}`, `group.member_removed:${alice}`];
    for (let i = 0; i < 200 && seen.length < expected.length; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(expected);
    await scim.close();
  });

  it('refuses clearly when the store keeps no event log', () => {
    const store = new MemoryUserStore({ events: false });
    const scim = createScim({
      store,
      verifier: staticApiKeys([{ key: 'k'.repeat(32), tenant: 't' }]),
    });
    expect(() => scim.events.subscribe('audit', async () => undefined)).toThrow(/no event log/);
  });
});
