/**
 * Loads N users through `/Bulk`, 1,000 operations per request, into scimkit served as the
 * benchmark kit's PostgreSQL server serves it (node:http, `PostgresUserStore` on a `pg` pool of
 * 16, one tenant, userNames that are email addresses), and reports users per second and when
 * the last welcome email was delivered. Every user is created active, so each one is invited
 * and gets a welcome email; the mailer only notes the time of each send.
 *
 * Run: `node --import tsx bench/postgres/bulk-load.ts [--users 10000] [--concurrency N]`
 * (`limits.bulkConcurrency`; the service's default when not given), against
 * `SCIMKIT_BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/test). The load goes
 * into a schema of its own, dropped at the end.
 *
 * `postgres.bench.ts` loads its large tenants with {@link loadThroughBulk}: through the store's
 * own write path, every column the store keeps is written as the store writes it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { scimNode } from '../../src/adapters/node/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { PostgresUserStore, pgExecutor } from '../../src/stores/postgres/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const BULK_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
/** Operations per `/Bulk` request: the service's default `maxBulkOperations`. */
const PER_REQUEST = 1_000;
const TOKEN = 'bench-token';
/** Longest wait for the welcome emails once every user is created. */
const MAIL_WAIT_MS = 600_000;

/** What one load took. */
export interface BulkLoadResult {
  /** Users created. */
  readonly users: number;
  /** From the first `/Bulk` request to the last answer, in ms. */
  readonly loadMs: number;
  /** From the first `/Bulk` request to the last welcome email delivered, in ms. */
  readonly lastWelcomeMs: number;
}

/**
 * Creates `size` users in `tenant` of the migrated `schema`, named `user<i>@example.org`
 * (i from 0), through `/Bulk` over HTTP, and waits until each one's welcome email is sent.
 */
export async function loadThroughBulk(
  pool: pg.Pool,
  schema: string,
  tenant: string,
  size: number,
  bulkConcurrency?: number,
): Promise<BulkLoadResult> {
  let sent = 0;
  let lastSentAt = 0;
  let allSent = () => {};
  const delivered = new Promise<void>((resolve) => (allSent = resolve));
  const scim = createScim({
    store: new PostgresUserStore({ executor: pgExecutor(pool), schema }),
    auth: { verifier: staticApiKeys([{ key: TOKEN, tenant }]) },
    mail: {
      mailer: {
        async sendWelcome() {
          sent += 1;
          lastSentAt = performance.now();
          if (sent === size) allSent();
        },
      },
    },
    schema: { userNameRule: 'email' },
    ...(bulkConcurrency === undefined ? {} : { limits: { bulkConcurrency } }),
  });
  const server = createServer(scimNode(scim));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started = performance.now();
  try {
    for (let from = 0; from < size; from += PER_REQUEST) {
      const to = Math.min(size, from + PER_REQUEST);
      await postBulk(`http://127.0.0.1:${port}/Bulk`, from, to);
    }
    const loadMs = performance.now() - started;
    if (size > 0) await within(delivered, MAIL_WAIT_MS, () => `${sent} of ${size} welcome emails`);
    return { users: size, loadMs, lastWelcomeMs: size > 0 ? lastSentAt - started : 0 };
  } finally {
    await scim.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Sends one `/Bulk` request creating users `from` to `to - 1`; fails unless each is a 201. */
async function postBulk(url: string, from: number, to: number): Promise<void> {
  const Operations = [];
  for (let i = from; i < to; i++)
    Operations.push({
      method: 'POST',
      path: '/Users',
      bulkId: `u${i}`,
      data: {
        schemas: [USER],
        userName: `user${i}@example.org`,
        externalId: `ext-${i}`,
        active: true,
        name: { givenName: `Given${i}`, familyName: `Family${i}` },
      },
    });
  const reply = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({ schemas: [BULK_REQUEST], Operations }),
  });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`/Bulk answered ${reply.status}: ${text}`);
  const answers = (JSON.parse(text) as { Operations: { status: string }[] }).Operations;
  const refused = answers.filter((op) => op.status !== '201');
  if (answers.length !== to - from || refused.length > 0)
    throw new Error(`/Bulk of users ${from}–${to - 1}: ${JSON.stringify(refused.slice(0, 3))}`);
}

/** Waits for `promise`, failing after `ms` with what `progress` says. */
async function within(promise: Promise<void>, ms: number, progress: () => string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${ms} ms: ${progress()}`)), ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  const { values } = parseArgs({
    options: { users: { type: 'string', default: '10000' }, concurrency: { type: 'string' } },
  });
  const size = Number(values.users);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (!Number.isInteger(size) || size < 1) throw new Error(`--users: ${values.users}`);
  const url =
    process.env['SCIMKIT_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const pool = new pg.Pool({ connectionString: url, max: 16 });
  const schema = `scimkit_bulk_load_${process.pid}`;
  try {
    await new PostgresUserStore({ executor: pgExecutor(pool), schema }).migrate();
    const result = await loadThroughBulk(pool, schema, 'bench', size, concurrency);
    const seconds = result.loadMs / 1000;
    console.log(
      `${size.toLocaleString('en')} users through /Bulk (${PER_REQUEST} per request, ` +
        `bulkConcurrency ${concurrency ?? 'default'}): ` +
        `${seconds.toFixed(1)} s, ${Math.round(size / seconds).toLocaleString('en')} users/s; ` +
        `last welcome email delivered at ${(result.lastWelcomeMs / 1000).toFixed(1)} s`,
    );
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
