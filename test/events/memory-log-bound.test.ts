// The memory event log keeps the most recent `eventsKept` events. A reader or subscriber that
// falls further behind has lost events, and is told so (400 invalidCursor, onError) rather
// than resumed past them; a cursor the log never gave is refused as on PostgreSQL.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { LoggedEvent, Scim } from '../../src/index.js';
import { isScimError } from '../../src/errors/index.js';
import { MemoryEventLog, MemoryUserStore } from '../../src/stores/memory/index.js';
import { KEY_B, patchBody, setup } from '../core/harness.js';

async function readAll(scim: Scim, after?: string, tenant = 'tenant-a'): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let cursor = after;
  for (let i = 0; i < 100; i++) {
    const page = await scim.events.list(tenant, { after: cursor, limit: 2 });
    all.push(...page.events);
    if (page.events.length === 0) return all;
    cursor = page.next;
  }
  throw new Error('the feed did not end');
}

const refusal = (error: unknown) =>
  isScimError(error) ? [error.status, error.scimType, error.message] : error;
const refused = (error: unknown) => (isScimError(error) ? [error.status, error.scimType] : error);

describe('the memory log is bounded', () => {
  it('keeps the most recent `eventsKept` events; a cursor older than a dropped one is refused', async () => {
    const h = setup({ store: new MemoryUserStore({ eventsKept: 3 }) });
    const first = await h.createUser('k1@example.org');
    const { next: afterFirst } = await h.scim.events.list('tenant-a');
    const second = await h.createUser('k2@example.org');
    const { next: afterSecond } = await h.scim.events.list('tenant-a', { after: afterFirst });
    const later = [];
    for (let i = 3; i <= 5; i++) later.push(await h.createUser(`k${i}@example.org`));
    const kept = await readAll(h.scim);
    expect(kept.map((e) => e.data.id)).toEqual(later.map((u) => u.id));
    expect(kept.map((e) => e.data.id)).not.toContain(first.id);
    // The reader that saw only k1 missed k2: told so, with what to do.
    const missed = await h.scim.events.list('tenant-a', { after: afterFirst }).catch(refusal);
    expect(missed).toEqual([400, 'invalidCursor', expect.stringMatching(/dropped.*eventsKept/)]);
    // The reader that saw k2 (dropped since) missed nothing: it resumes at the oldest kept.
    const resumed = await readAll(h.scim, afterSecond);
    expect(resumed.map((e) => e.id)).toEqual(kept.map((e) => e.id));
    expect(second.id).not.toBe(resumed[0]?.data.id);
  });

  it('refuses only readers whose tenant and types lost an event', async () => {
    const h = setup({ store: new MemoryUserStore({ eventsKept: 2 }) });
    const ada = await h.createUser('ada@example.org', { active: true });
    const { next: a1 } = await h.scim.events.list('tenant-a');
    // tenant-b's events push tenant-a's user.created out.
    await h.createUser('b1@example.org', {}, KEY_B);
    const { next: b1 } = await h.scim.events.list('tenant-b');
    await h.createUser('b2@example.org', {}, KEY_B);
    const { next: b2 } = await h.scim.events.list('tenant-b', { after: b1 });
    // Nothing of tenant-a after a1 was dropped: an empty page, no refusal.
    expect((await h.scim.events.list('tenant-a', { after: a1 })).events).toEqual([]);
    await h.request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    await h.createUser('b3@example.org', {}, KEY_B);
    await h.createUser('b4@example.org', {}, KEY_B);
    // tenant-a's user.updated and user.deactivated are gone: a reader of every type missed them,
    // a reader of user.created only did not. Of tenant-b's readers, the one that had read b2
    // missed nothing, the one that had read b1 only missed b2.
    expect(await h.scim.events.list('tenant-a', { after: a1 }).catch(refused)).toEqual([
      400,
      'invalidCursor',
    ]);
    const created = await h.scim.events.list('tenant-a', { after: a1, types: ['user.created'] });
    expect(created.events).toEqual([]);
    const b = await h.scim.events.list('tenant-b', { after: b2 });
    expect(b.events.map((e) => e.type)).toEqual(['user.created', 'user.created']);
    expect(await h.scim.events.list('tenant-b', { after: b1 }).catch(refused)).toEqual([
      400,
      'invalidCursor',
    ]);
    // Omitting the cursor reads from the oldest kept.
    expect((await readAll(h.scim, undefined, 'tenant-b')).map((e) => e.type)).toEqual([
      'user.created',
      'user.created',
    ]);
  });

  it('refuses a cursor it never gave: past its newest event, or of another shape', async () => {
    const h = setup();
    await h.createUser('n1@example.org');
    const { events, next } = await h.scim.events.list('tenant-a');
    const newest = events.at(-1)?.cursor as string;
    expect(next).toBe(newest);
    const past = (parseInt(newest, 36) + 1).toString(36);
    for (const after of [past, 'zzzz', '0', `0${newest}`, 'A', 'x.y', '1'.repeat(11)])
      expect(await h.scim.events.list('tenant-a', { after }).catch(refused)).toEqual([
        400,
        'invalidCursor',
      ]);
    // The next write makes `past` a cursor the log gives.
    await h.createUser('n2@example.org');
    expect((await h.scim.events.list('tenant-a', { after: newest })).next).toBe(past);
  });
});

describe('the memory of the memory log', () => {
  it('lets go of a dropped event, and of the version of a resource it held, at once', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const log = new MemoryEventLog(2);
    const versions: WeakRef<object>[] = [];
    for (let i = 1; i <= 3; i++) {
      const resource = Object.freeze({ id: 'u1', version: i });
      versions.push(new WeakRef(resource));
      const data = { id: 'u1', resourceType: 'User', resource };
      const event = {
        id: `e${i}`,
        type: 'user.updated' as const,
        tenant: 't',
        occurredAt: '',
        data,
      };
      log.record([event], resource, resource);
    }
    // A WeakRef holds its value until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(versions.map((version) => version.deref() !== undefined)).toEqual([false, true, true]);
    expect((await log.list({ tenant: 't', limit: 10 })).events.map((e) => e.id)).toEqual([
      'e2',
      'e3',
    ]);
  });
});

describe('a subscriber that falls behind the memory bound', () => {
  it('reports the loss to onError, delivers nothing past it, and resumes once replayed', async () => {
    const errors: unknown[] = [];
    const h = setup({
      store: new MemoryUserStore({ eventsKept: 3 }),
      hooks: { onError: (error) => void errors.push(error) },
    });
    const seen: string[] = [];
    const handler = async (event: LoggedEvent) => void seen.push(event.data.id);
    const options = { pollIntervalMs: 0 };
    let subscription = h.scim.events.subscribe('audit', handler, options);
    const first = await h.createUser('s1@example.org');
    await subscription.drain();
    expect(seen).toEqual([first.id]);
    await subscription.stop();
    // Four writes while it is stopped: the oldest two leave the log unread.
    const later = [];
    for (let i = 2; i <= 5; i++) later.push(await h.createUser(`s${i}@example.org`));
    subscription = h.scim.events.subscribe('audit', handler, options);
    await expect(subscription.drain()).rejects.toMatchObject({ scimType: 'invalidCursor' });
    expect(seen).toEqual([first.id]);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThan(20);
    expect(errors.every((e) => isScimError(e) && e.scimType === 'invalidCursor')).toBe(true);
    await subscription.replay({});
    await subscription.drain();
    expect(seen).toEqual([first.id, ...later.slice(1).map((u) => u.id)]);
    await h.scim.close();
  });
});

describe("a tenant's delivery that falls behind the memory bound", () => {
  it('is reported once, then waits for a replay instead of retrying in a loop', async () => {
    const errors: unknown[] = [];
    let now = Date.parse('2026-01-01T00:00:00Z');
    const h = setup({
      store: new MemoryUserStore({ eventsKept: 3 }),
      hooks: { now: () => new Date(now), onError: (error) => void errors.push(error) },
    });
    const seen: string[] = [];
    let down = false;
    const subscription = h.scim.events.subscribe(
      'audit',
      async (event: LoggedEvent) => {
        if (down) throw new Error('endpoint down');
        seen.push(event.data.id);
      },
      { pollIntervalMs: 0, backoff: { initialMs: 60_000, maxMs: 60_000 } },
    );
    const first = await h.createUser('p1@example.org');
    await subscription.drain();
    down = true;
    await h.createUser('p2@example.org');
    await subscription.drain();
    // While the tenant waits for its retry, three more writes push p2 out of the log.
    const later = [];
    for (let i = 3; i <= 5; i++) later.push(await h.createUser(`p${i}@example.org`));
    down = false;
    now += 120_000;
    await subscription.drain();
    expect(seen).toEqual([first.id]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 400, scimType: 'invalidCursor' });
    await subscription.replay({ tenant: 'tenant-a' });
    await subscription.drain();
    expect(seen).toEqual([first.id, ...later.map((u) => u.id)]);
    await h.scim.close();
  });
});
