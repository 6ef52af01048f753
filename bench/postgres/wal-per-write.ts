// The write-ahead log a write leaves on PostgreSQL: creates of active users, PATCHes of
// `active` and of `displayName`, through `scim.handle` on `PostgresUserStore`, with the store's
// event log hidden, with it, and with it and the welcome email. At 16 connections on these
// machines every server of the kit waits mostly on the WAL's flush at commit (`WALWrite` and
// `WALSync` in `pg_stat_activity`), so the bytes a write adds to it are what its events cost
// there, more than their CPU. Bytes are read from `pg_current_wal_insert_lsn()`, so other work
// on the server counts too: run it on a quiet database.
//
//   node --import tsx bench/postgres/wal-per-write.ts [--writes 1000]
//
// Against `SCIMKIT_BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/test), in
// schemas of its own, dropped at the end. A CHECKPOINT before each kind of write puts the
// full-page images of the pages it touches first in its figure, as after any checkpoint.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createScim, staticApiKeys, type Scim } from '../../src/index.js';
import { PostgresUserStore, pgExecutor } from '../../src/stores/postgres/index.js';

const { values: args } = parseArgs({ options: { writes: { type: 'string', default: '1000' } } });
const N = Number(args.writes);
const URL = process.env['SCIMKIT_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const TOKEN = 'w'.repeat(32);
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/scim+json' };
const pool = new pg.Pool({ connectionString: URL, max: 4 });

async function walNow(): Promise<string> {
  return (await pool.query<{ l: string }>('SELECT pg_current_wal_insert_lsn()::text AS l')).rows[0]
    ?.l as string;
}
async function walSince(from: string): Promise<number> {
  const { rows } = await pool.query<{ d: string }>(
    'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::text AS d',
    [from],
  );
  return Number(rows[0]?.d);
}

/** The service over `store`, its log hidden (`off`), kept (`log`), or kept with a mailer. */
function service(store: PostgresUserStore, variant: 'off' | 'log' | 'mail'): Scim {
  const hidden = new Set<PropertyKey>(variant === 'off' ? ['events', 'subscriptions'] : []);
  const served = new Proxy(store, {
    get: (target, key) => {
      if (hidden.has(key)) return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
    has: (target, key) => !hidden.has(key) && Reflect.has(target, key),
  });
  return createScim({
    store: served,
    auth: { verifier: staticApiKeys([{ key: TOKEN, tenant: 'bench' }]) },
    basePath: '/scim',
    userNameRule: 'email',
    ...(variant === 'mail' ? { mail: { mailer: { sendWelcome: async () => undefined } } } : {}),
  });
}

async function send(scim: Scim, method: string, path: string, body: unknown): Promise<string> {
  const res = await scim.handle({
    method,
    path: `/scim${path}`,
    headers: HEADERS,
    body: JSON.stringify(body),
    baseUrl: 'http://bench.example',
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${String(res.body)}`);
  return String(res.body);
}

const patch = (path: string, value: unknown) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op: 'replace', path, value }],
});

console.log('| store | create (active) | PATCH `active` | PATCH `displayName` |');
console.log('| --- | ---: | ---: | ---: |');
for (const variant of ['off', 'log', 'mail'] as const) {
  const schema = `wal_per_write_${variant}`;
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const store = new PostgresUserStore({ executor: pgExecutor(pool), schema });
  await store.migrate();
  const scim = service(store, variant);
  const ids: string[] = [];
  const measure = async (write: (i: number) => Promise<void>) => {
    await scim.mail?.drain();
    await pool.query('CHECKPOINT');
    const from = await walNow();
    for (let i = 0; i < N; i++) await write(i);
    await scim.mail?.drain();
    return (await walSince(from)) / N;
  };
  const create = await measure(async (i) => {
    const body = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: `u${i}@example.com`,
      active: true,
      name: { givenName: `Given${i}`, familyName: `Family${i}` },
    };
    ids.push((JSON.parse(await send(scim, 'POST', '/Users', body)) as { id: string }).id);
  });
  const active = await measure(async (i) => {
    await send(scim, 'PATCH', `/Users/${ids[i]}`, patch('active', false));
  });
  const displayName = await measure(async (i) => {
    await send(scim, 'PATCH', `/Users/${ids[i]}`, patch('displayName', `Display ${i}`));
  });
  const name = { off: 'log hidden', log: 'log', mail: 'log and welcome email' }[variant];
  console.log(
    `| ${name} | ${create.toFixed(0)} B | ${active.toFixed(0)} B | ${displayName.toFixed(0)} B |`,
  );
  await scim.close();
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
await pool.end();
