/**
 * Measures what the PostgreSQL store's statement timeout and folded copies cost on a real
 * server, interleaved so that load on the machine hits every side alike (medians):
 *
 * 1. store calls with the default `statementTimeoutMs` next to the same calls with `0` (no
 *    timeout set), and the two other ways a timeout could be applied to one statement (a
 *    transaction with `SET LOCAL` folded into `BEGIN`, and `BEGIN`, `SET LOCAL` apart);
 * 2. the folded copy: its size next to the document's, the time `foldedJson` takes per user,
 *    and a caseIgnore scan (`name.givenName co`) reading the folded copy next to `lower()`.
 *
 * Run: `SCIMKIT_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *   node --import tsx bench/postgres/bounds.bench.ts`
 */
import pg from 'pg';
import type { Filter } from '../../src/filter/ast.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { foldedJson } from '../../src/stores/postgres/folded-json.js';
import { PostgresUserStore, migrate, pgExecutor } from '../../src/stores/postgres/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { compareInterleaved, median } from './measure.js';

const url = process.env['SCIMKIT_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = Number(process.env['SCIMKIT_BENCH_ROUNDS'] ?? 1000);
const USERS = Number(process.env['SCIMKIT_BENCH_USERS'] ?? 10_000);
const T = 'bounds';
const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

async function timeouts(pool: pg.Pool, schema: string, users: ScimUser[]) {
  // One connection each, as two services would have: the two stores taking turns on one
  // connection would set the session's timeout back and forth on every call.
  const other = new pg.Pool({ connectionString: url, max: 1 });
  const bounded = new PostgresUserStore({ executor: pgExecutor(pool), schema });
  const unbounded = new PostgresUserStore({
    executor: pgExecutor(other),
    schema,
    statementTimeoutMs: 0,
  });
  const t = `"${schema}".users`;
  let k = 0;
  const pick = () => users[k++ % users.length] as ScimUser;
  const byName = (u: ScimUser): Filter => ({
    kind: 'compare',
    path: { attribute: 'userName' },
    op: 'eq',
    value: u.userName,
  });
  const get = `SELECT doc FROM ${t} WHERE tenant = $1 AND id = $2`;
  const inTransaction = async (begin: readonly string[]) => {
    const client = await pool.connect();
    try {
      for (const text of begin) await client.query(text);
      await client.query({ name: 'bounds_get', text: get, values: [T, pick().id] });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  const ops: [string, ((store: PostgresUserStore) => Promise<unknown>) | undefined][] = [
    ['get by id', (s) => s.get(T, pick().id)],
    ['filter userName eq', (s) => s.list(T, { filter: byName(pick()), startIndex: 1, count: 1 })],
    [
      'replace (PATCH write)',
      async (s) => {
        const u = pick();
        const current = (await s.get(T, u.id)) as ScimUser;
        const version = `W/"${Number(current.meta.version.slice(3, -1)) + 1}"`;
        const next = { ...current, displayName: `n${k}`, meta: { ...current.meta, version } };
        await s.replace(T, next, { expectedVersion: current.meta.version });
      },
    ],
  ];
  console.log('\n## Statement timeout: default (5000 ms) next to none\n');
  console.log('| operation | timeout 5000 ms | no timeout | ratio |');
  console.log('| --- | --- | --- | --- |');
  for (const [op, fn] of ops) {
    if (!fn) continue;
    const [a = [], b = []] = await compareInterleaved(
      [() => fn(bounded), () => fn(unbounded)],
      ROUNDS,
      30_000,
    );
    console.log(
      `| ${op} | ${fmt(median(a))} | ${fmt(median(b))} | ${(median(a) / median(b)).toFixed(2)}x |`,
    );
  }
  const [store = [], local = [], apart = []] = await compareInterleaved(
    [
      () => bounded.get(T, pick().id),
      () => inTransaction(['BEGIN; SET LOCAL statement_timeout = 5000']),
      () => inTransaction(['BEGIN', 'SET LOCAL statement_timeout = 5000']),
    ],
    ROUNDS,
    30_000,
  );
  console.log('\n## One get by id under a timeout, three ways\n');
  console.log('| how | median |');
  console.log('| --- | --- |');
  console.log(`| store (session setting, kept per connection) | ${fmt(median(store))} |`);
  console.log(`| raw: BEGIN; SET LOCAL (one round trip), SELECT, COMMIT | ${fmt(median(local))} |`);
  console.log(`| raw: BEGIN, SET LOCAL, SELECT, COMMIT | ${fmt(median(apart))} |`);
  await other.end();
}

async function folding(pool: pg.Pool, schema: string, users: ScimUser[]) {
  const t = `"${schema}".users`;
  const sizes = await pool.query<{ doc: number; folded: number }>(
    `SELECT avg(pg_column_size(doc))::int AS doc, avg(pg_column_size(folded))::int AS folded
     FROM ${t} WHERE tenant = $1`,
    [T],
  );
  const started = performance.now();
  for (const u of users) foldedJson(u);
  const perUser = (performance.now() - started) / users.length;
  const plain = performance.now();
  for (const u of users) JSON.stringify(u);
  const plainPerUser = (performance.now() - plain) / users.length;
  console.log('\n## The folded copy\n');
  console.log(`- bytes per user: doc ${sizes.rows[0]?.doc}, folded ${sizes.rows[0]?.folded}`);
  console.log(
    `- foldedJson per user: ${fmt(perUser)}, JSON.stringify ${fmt(plainPerUser)} (${users.length} users)`,
  );
  const scan = (expression: string, literal: string) => () =>
    pool.query(`SELECT count(*) FROM ${t} WHERE tenant = $1 AND ${expression} LIKE $2`, [
      T,
      literal,
    ]);
  const [folded = [], lower = []] = await compareInterleaved(
    [
      scan(`folded->'name'->>'givenName'`, '%ada9%'),
      scan(`lower(doc->'name'->>'givenName')`, '%ada9%'),
    ],
    Math.min(ROUNDS, 50),
    30_000,
  );
  console.log(`\n## A caseIgnore scan over ${users.length} users (name.givenName co)\n`);
  console.log('| reads | median |');
  console.log('| --- | --- |');
  console.log(`| folded copy, exact LIKE | ${fmt(median(folded))} |`);
  console.log(`| lower() of the document | ${fmt(median(lower))} |`);
}

async function main() {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const schema = `scimkit_bounds_${process.pid}`;
  try {
    await migrate(pgExecutor(pool), { schema });
    const store = new PostgresUserStore({ executor: pgExecutor(pool), schema });
    const factory = createUserFactory();
    const users: ScimUser[] = [];
    for (let i = 0; i < USERS; i++) {
      const u = factory.make();
      const named = { ...u, name: { givenName: `Ada${i}`, familyName: `Émile${i}` } } as ScimUser;
      await store.create(T, named);
      users.push(named);
    }
    await pool.query(`ANALYZE "${schema}".users`);
    await timeouts(pool, schema, users);
    await folding(pool, schema, users);
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}

await main();
