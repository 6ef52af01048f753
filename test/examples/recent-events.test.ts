// How the console follows a tenant's event log to show its newest events first, with a log
// that is read forwards only, in bounded batches.
import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/contracts/event-log.js';
import type { DirectoryEvents, FeedQuery } from '../../examples/server/events/directory-events.js';
import { RecentEvents } from '../../examples/server/console/recent-events.js';

function logOf(count: number) {
  const log: LoggedEvent[] = [];
  const add = (n: number, tenant = 't1') => {
    for (let i = 0; i < n; i++) {
      const seq = log.length + 1;
      log.push({
        id: `e${seq}`,
        type: 'user.created',
        tenant,
        occurredAt: new Date(seq * 1000).toISOString(),
        cursor: String(seq),
        data: { id: `u${seq}`, resourceType: 'User' },
      });
    }
  };
  add(count);
  const reads: FeedQuery[] = [];
  const events: DirectoryEvents = {
    async list(tenant, query) {
      reads.push(query);
      const from = query.after === undefined ? 0 : Number(query.after);
      const page = log
        .slice(from)
        .filter((e) => e.tenant === tenant)
        .slice(0, query.limit);
      return { events: page, next: page.at(-1)?.cursor ?? query.after };
    },
    subscribe: () => ({ stop: () => undefined }),
  };
  return { events, add, reads };
}

const limits = { keep: 5, batch: 3, batchesPerView: 2, tenants: 2 };
const ids = (list: readonly LoggedEvent[]) => list.map((e) => e.id);

describe('RecentEvents', () => {
  it('keeps the newest events, newest first, and reads only what is new on the next view', async () => {
    const { events, add, reads } = logOf(4);
    const recent = new RecentEvents(events, limits);
    const first = await recent.newest('t1');
    expect(ids(first.events)).toEqual(['e4', 'e3', 'e2', 'e1']);
    expect(first.caughtUp).toBe(true);
    add(3);
    reads.length = 0;
    const second = await recent.newest('t1');
    expect(ids(second.events)).toEqual(['e7', 'e6', 'e5', 'e4', 'e3']);
    expect(reads[0]?.after).toBe('4');
  });

  it('catches up with a long log over several views, saying so until it has', async () => {
    const { events } = logOf(10);
    const recent = new RecentEvents(events, limits);
    const first = await recent.newest('t1');
    expect(first).toMatchObject({ caughtUp: false, read: 6 });
    const second = await recent.newest('t1');
    expect(second).toMatchObject({ caughtUp: true, read: 10 });
    expect(ids(second.events)).toEqual(['e10', 'e9', 'e8', 'e7', 'e6']);
  });

  it('reads once for two views at the same time, so no event is kept twice', async () => {
    const { events, reads } = logOf(2);
    const recent = new RecentEvents(events, limits);
    const [a, b] = await Promise.all([recent.newest('t1'), recent.newest('t1')]);
    expect(ids(a.events)).toEqual(['e2', 'e1']);
    expect(ids(b.events)).toEqual(['e2', 'e1']);
    expect(reads).toHaveLength(1);
  });

  it('follows a bounded number of tenants, dropping the one viewed longest ago', async () => {
    const { events, add, reads } = logOf(0);
    add(1, 'a');
    add(1, 'b');
    add(1, 'c');
    const recent = new RecentEvents(events, limits);
    await recent.newest('a');
    await recent.newest('b');
    await recent.newest('a');
    await recent.newest('c');
    reads.length = 0;
    // 'b' was dropped: it is read again from the start; 'c' resumes after its cursor.
    await recent.newest('c');
    await recent.newest('b');
    expect(reads.map((r) => r.after)).toEqual(['3', undefined]);
  });
});
