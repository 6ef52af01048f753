// Reading a tenant's feed in the event tests, shared by every file that waits for events.
import type { LoggedEvent, Scim } from '../../src/index.js';

/**
 * Every event of `tenant` (of `types`, when given) once `done` holds: on a PostgreSQL server
 * the feed holds back while any transaction of the cluster is open (a parallel test file's,
 * say), so the read waits for the events a test awaits, within bounds.
 */
export async function readUntil(
  scim: Scim,
  done: (events: readonly LoggedEvent[]) => boolean,
  tenant = 'tenant-a',
  types?: string[],
): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 400; i++) {
    const page = await scim.events.list(tenant, { after: cursor, limit: 50, types });
    all.push(...page.events);
    cursor = page.next;
    if (page.events.length === 0) {
      if (done(all)) return all;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error('the feed did not show the events awaited');
}

/** Whether the events hold one of `type` about the resource `id`: a `done` of `readUntil`. */
export const has = (type: string, id: string) => (events: readonly LoggedEvent[]) =>
  events.some((e) => e.type === type && e.data.id === id);
