// A process killed (SIGKILL) in the middle of concurrent creates loses nothing it acknowledged:
// after a restart on the same data every user answered 201 is in the store with its
// `user.created` event in the feed, no event names a user the store does not have, and a
// webhook endpoint on loopback receives every acknowledged user's event.
//
// The first process runs without the webhook: a subscriber's claims held by a killed process
// keep others out until their lease ends (a minute in the example server), longer than this
// test may take; taking over a killed instance's tenants is tested in
// test/core/subscriptions/shared-work.test.ts. On PGlite the data folder starts as a copy of the
// run's empty database: a first start in an empty folder would spend most of the test in
// initdb (20 s and more on a busy machine), which has nothing to do with a crash. The creates,
// the kill and the checks take a few seconds, each loop bounded in count and time.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteFolder } from '../pglite/template.js';
import {
  databaseUrl,
  freshSchema,
  KEY,
  killAll,
  scratch,
  spawnServer,
  USER_SCHEMA,
} from './harness.js';

const CREATES = 200;
const AT_ONCE = 8;
/** Acknowledged creates before the kill: the rest are in flight or never sent. */
const KILL_AFTER = 60;
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' };

interface Backend {
  readonly name: string;
  readonly skip: boolean;
  /** Makes the backend's database ready for a first start with `env(dir)`. */
  prepare(dir: string): Promise<void>;
  env(dir: string): Record<string, string>;
  cleanup(): Promise<void>;
}

const schema = databaseUrl === undefined ? undefined : freshSchema(databaseUrl);
const backends: Backend[] = [
  {
    name: 'PGlite',
    skip: false,
    // Where the example server keeps its database inside SCIMKIT_DATA_DIR.
    prepare: (dir) => createPgliteFolder(join(dir, 'data', 'pglite')),
    env: (dir) => ({ SCIMKIT_DATA_DIR: join(dir, 'data') }),
    cleanup: async () => undefined,
  },
  {
    name: 'PostgreSQL',
    skip: schema === undefined,
    prepare: async () => undefined,
    env: () => ({ DATABASE_URL: databaseUrl ?? '', SCIMKIT_DB_SCHEMA: schema?.schema ?? '' }),
    cleanup: async () => schema?.drop(),
  },
];

/** A webhook endpoint on loopback: keeps each event it is sent, answers 204. */
async function webhookReceiver(): Promise<{ url: string; ids: Set<string>; close(): void }> {
  const ids = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { id: string } };
      if (event.type === 'user.created') ids.add(event.data.id);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, ids, close: () => server.close() };
}

/**
 * Sends up to `CREATES` creates, `AT_ONCE` at a time, and calls `kill` once `KILL_AFTER` were
 * acknowledged; resolves to the ids answered 201. A create in flight at the kill fails.
 */
async function createUntilKilled(url: string, kill: () => void): Promise<string[]> {
  const acknowledged: string[] = [];
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (!killed && next < CREATES) {
      const userName = `crash-${next++}@example.org`;
      try {
        const response = await fetch(`${url}/Users`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({ schemas: [USER_SCHEMA], userName, active: false }),
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await response.json()) as { id?: string };
        if (response.status !== 201) throw new Error(`create answered ${response.status}`);
        acknowledged.push(body.id as string);
      } catch (error) {
        if (!killed) throw error;
      }
      if (!killed && acknowledged.length >= KILL_AFTER) {
        killed = true;
        kill();
      }
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return acknowledged;
}

/** Every user id of the tenant, page by page. */
async function userIds(url: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let start = 1, page = 0; page < 50; page++) {
    const response = await fetch(`${url}/Users?count=100&startIndex=${start}&attributes=id`, {
      headers: HEADERS,
    });
    const body = (await response.json()) as { totalResults: number; Resources?: { id: string }[] };
    for (const user of body.Resources ?? []) ids.add(user.id);
    start += 100;
    if (start > body.totalResults) return ids;
  }
  throw new Error('the user list did not end');
}

/** The ids of every `user.created` event in the feed, page by page. */
async function createdEvents(origin: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const query: string = after === null ? '' : `&after=${after}`;
    const response = await fetch(`${origin}/api/v1/events?types=user.created&limit=500${query}`, {
      headers: HEADERS,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { data: { id: string } }[]; next: string };
    if (body.data.length === 0) return ids;
    ids.push(...body.data.map((e) => e.data.id));
    after = body.next;
  }
  throw new Error('the feed did not end');
}

describe.each(backends)('the example server killed mid-write on $name', (backend) => {
  afterAll(async () => {
    await killAll();
    await backend.cleanup();
  });

  it.skipIf(backend.skip)(
    'keeps every acknowledged create and its event, and its webhook delivers them after a restart',
    async () => {
      const folder = scratch();
      const receiver = await webhookReceiver();
      try {
        await backend.prepare(folder.dir);
        const first = await spawnServer(backend.env(folder.dir));
        let killing: Promise<void> | undefined;
        const acknowledged = await createUntilKilled(first.url, () => (killing = first.kill()));
        await killing;
        expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
        expect(acknowledged.length).toBeLessThan(CREATES);

        const second = await spawnServer({
          ...backend.env(folder.dir),
          SCIMKIT_WEBHOOK_URL: receiver.url,
          SCIMKIT_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
        });
        const users = await userIds(second.url);
        const events = await createdEvents(second.origin);
        expect(acknowledged.filter((id) => !users.has(id))).toEqual([]);
        expect(acknowledged.filter((id) => !events.includes(id))).toEqual([]);
        // A create in flight at the kill may have committed: then with its event, once.
        expect(events.filter((id) => !users.has(id))).toEqual([]);
        expect([...users].filter((id) => !events.includes(id))).toEqual([]);
        expect(new Set(events).size).toBe(events.length);

        for (let i = 0; i < 200 && acknowledged.some((id) => !receiver.ids.has(id)); i++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(acknowledged.filter((id) => !receiver.ids.has(id))).toEqual([]);
        expect([...receiver.ids].filter((id) => !users.has(id))).toEqual([]);
        expect(await second.stop()).toBe(0);
      } finally {
        receiver.close();
        folder.remove();
      }
    },
    120_000,
  );
});
