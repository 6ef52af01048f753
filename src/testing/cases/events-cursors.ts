import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import { event, eventCase, readAll } from './events.js';

/**
 * Texts no log gives: past any position a log of the bundled shapes can reach (a sequence
 * number, an xid and seq in base 36), or of no shape at all.
 */
const NEVER_GIVEN = ['zzzzzzzzzz', 'zzzzzzzzzzzz.zzzzzzzzzzzz', '', '-1', 'a'.repeat(300)];

/** The cursors a log refuses: every text it did not give, one past its newest event included. */
export const eventCursorCases: readonly StoreConformanceCase[] = [
  eventCase(
    'events.cursor-never-given',
    'a cursor the log never gave, one past its newest event included, is a 400 invalidCursor',
    async (ctx) => {
      const { log, store, tenant, users } = ctx;
      const user = users.make();
      await store.create(tenant, user, { events: [event(ctx, 'user.created', user.id)] });
      const [newest] = (await readAll(log, tenant, undefined, 10, 1)).slice(-1);
      check.ok(newest !== undefined, 'the event is listed');
      for (const after of NEVER_GIVEN) {
        await check.rejects(
          log.list({ tenant, limit: 5, after }),
          400,
          'invalidCursor',
          `a cursor the log never gave (${JSON.stringify(after.slice(0, 30))})`,
        );
        await check.rejects(
          log.list({ limit: 5, after }),
          400,
          'invalidCursor',
          `${JSON.stringify(after.slice(0, 30))} on a read of every tenant`,
        );
      }
      const page = await log.list({ tenant, limit: 5, after: newest?.cursor as string });
      check.deepEqual(
        [page.events.length, page.next],
        [0, newest?.cursor],
        'the newest cursor, still read as a position',
      );
    },
  ),
];
