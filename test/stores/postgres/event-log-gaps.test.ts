// The sequence-gap trap of outbox tables, on the real server: a transaction that began first
// and commits last must not be skipped by a reader that already read past a later one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryEvent, LoggedEvent } from '../../../src/contracts/event-log.js';
import { newId } from '../../../src/core/resources/new-id.js';
import { eventStatements, recordEvents } from '../../../src/stores/postgres/event-statements.js';
import type { TableNames } from '../../../src/stores/postgres/table-names.js';
import type { PostgresUserStore, QueryExecutor } from '../../../src/stores/postgres/index.js';
import { databaseUrl, openServer, type Backend } from './harness.js';

const event = (type: DirectoryEvent['type'], id: string): DirectoryEvent => ({
  id: newId(),
  type,
  tenant: 'gaps',
  occurredAt: new Date().toISOString(),
  data: { id, resourceType: 'User' },
});

// A transaction on `executor` that records `e` and stays open until `end` is called: it
// commits then, or rolls back with `rollback`.
async function openTransaction(executor: QueryExecutor, tables: TableNames, e: DirectoryEvent) {
  let end!: (rollback?: boolean) => void;
  const ended = new Promise<boolean>((resolve) => (end = (rollback = false) => resolve(rollback)));
  let recorded!: () => void;
  const isRecorded = new Promise<void>((resolve) => (recorded = resolve));
  const done = executor
    .transaction(async (tx) => {
      await recordEvents(tx, eventStatements(tables), [e]);
      recorded();
      if (await ended) throw new Error('rolled back on purpose');
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error && error.message === 'rolled back on purpose')) throw error;
    });
  await isRecorded;
  return {
    commit: async () => {
      end(false);
      await done;
    },
    rollback: async () => {
      end(true);
      await done;
    },
  };
}

describe.skipIf(!databaseUrl)('the event feed on the server never skips a late commit', () => {
  let backend: Backend;
  let store: PostgresUserStore;

  beforeAll(async () => {
    backend = await openServer(databaseUrl as string);
    store = backend.newStore();
    await store.migrate();
  }, 60_000);
  afterAll(() => backend?.close());

  async function readFrom(
    after: string | undefined,
  ): Promise<{ events: LoggedEvent[]; next?: string }> {
    const page = await store.events.list({
      tenant: 'gaps',
      limit: 100,
      ...(after ? { after } : {}),
    });
    return { events: [...page.events], ...(page.next ? { next: page.next } : {}) };
  }

  // Another test file's transaction on the server holds the feed back too: wait for it, within
  // bounds, rather than read a page too early.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 25));
  async function readAtLeast(after: string | undefined, n: number) {
    let page = await readFrom(after);
    for (let i = 0; i < 200 && page.events.length < n; i++) {
      await pause();
      page = await readFrom(after);
    }
    return page;
  }

  it('holds back a later commit until the earlier transaction ends, then lists both once', async () => {
    const before = await readFrom(undefined);
    const early = event('user.created', 'early');
    const late = event('user.created', 'late');
    const a = await openTransaction(backend.executor, backend.tables, early); // first, and stays open
    const b = await openTransaction(backend.other, backend.tables, late);
    await b.commit(); // B commits first
    const whileOpen = await readFrom(before.next);
    // B is committed but sorts after A, which is still open: the feed must not pass A yet.
    expect(whileOpen.events.map((e) => e.id)).not.toContain(early.id);
    expect(whileOpen.events.map((e) => e.id)).not.toContain(late.id);
    await a.commit();
    const after = await readAtLeast(whileOpen.next, 2);
    expect(after.events.map((e) => e.id)).toEqual([early.id, late.id]);
    // Resuming from the last cursor: nothing again.
    expect((await readFrom(after.next)).events).toEqual([]);
  });

  it('never lists an event of a transaction that rolled back', async () => {
    const start = await readFrom(undefined);
    const kept = event('user.updated', 'kept');
    const dropped = event('user.deleted', 'dropped');
    const a = await openTransaction(backend.executor, backend.tables, dropped);
    await (await openTransaction(backend.other, backend.tables, kept)).commit();
    await a.rollback();
    const page = await readAtLeast(start.next, 1);
    expect(page.events.map((e) => e.id)).toEqual([kept.id]);
  });
  it('lists writes of concurrent store transactions exactly once, whatever order they commit in', async () => {
    const start = await readFrom(undefined);
    const seen: string[] = [];
    let cursor = start.next;
    const written: string[] = [];
    // Single-statement writes on two pools: each its own transaction, committing in any order.
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 10; i++) {
        const e = event('user.created', `w${w}-${i}`);
        await recordEvents(
          w % 2 ? backend.executor : backend.other,
          eventStatements(backend.tables),
          [e],
        );
        written.push(e.id);
      }
    });
    const reading = (async () => {
      for (let round = 0; round < 200 && seen.length < 80; round++) {
        const page = await readFrom(cursor);
        seen.push(...page.events.map((e) => e.id));
        cursor = page.next;
      }
    })();
    await Promise.all(writers);
    await reading;
    for (let round = 0; round < 200 && seen.length < 80; round++) {
      await pause();
      const page = await readFrom(cursor);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.next;
    }
    expect(seen).toHaveLength(80);
    expect(new Set(seen)).toEqual(new Set(written));
  });
});
