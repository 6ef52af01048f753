/**
 * Benchmarks the PostgreSQL store on a real server against the raw `pg` driver doing the
 * equivalent single statement, in the same run, on the same connection, interleaved (store,
 * raw, store, raw, ...) so that load on the machine hits both alike. Then shows that a page and
 * a userName lookup cost the same with 10,000 and 1,000,000 users in the tenant.
 *
 * Run: `SCIMKIT_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *   node --import tsx bench/postgres/postgres.bench.ts [--large 1000000] [--keep]`
 * (`npm run bench:postgres`; `DATABASE_URL` is read when `SCIMKIT_BENCH_DATABASE_URL` is not set).
 */
import os from 'node:os';
import pg from 'pg';
import type { Filter } from '../../src/filter/ast.js';
import { userNameKey } from '../../src/schema/user-name-key.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { foldedJson } from '../../src/stores/postgres/folded-json.js';
import { PostgresUserStore, migrate, pgExecutor } from '../../src/stores/postgres/index.js';
import { pageStatement, usersPage } from '../../src/stores/postgres/page-statement.js';
import { tableNames } from '../../src/stores/postgres/table-names.js';
import { createUserFactory } from '../../src/testing/index.js';
import { loadThroughBulk } from './bulk-load.js';
import { compareInterleaved, median } from './measure.js';

const url =
  process.env['SCIMKIT_BENCH_DATABASE_URL'] ??
  process.env['DATABASE_URL'] ??
  'postgres://postgres@127.0.0.1:5432/test';
const largeArg = process.argv.indexOf('--large');
const LARGE = largeArg > 0 ? Number(process.argv[largeArg + 1]) : 1_000_000;
const SMALL = 10_000;
/** Keep the loaded tenants between runs (and reuse them): `--keep`. */
const KEEP = process.argv.includes('--keep');
/** Skip the store-vs-raw table: `--scale-only`. */
const SCALE_ONLY = process.argv.includes('--scale-only');
const ROUNDS = Number(process.env['SCIMKIT_BENCH_ROUNDS'] ?? 1500);
const T = 'bench';

const userNameEq = (value: string): Filter => ({
  kind: 'compare',
  path: { attribute: 'userName' },
  op: 'eq',
  value,
});
const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

async function storeVsRaw(pool: pg.Pool) {
  const schema = `scimkit_bench_${process.pid}`;
  const executor = pgExecutor(pool);
  await migrate(executor, { schema });
  const store = new PostgresUserStore({ executor, schema });
  const users = createUserFactory();
  const t = `"${schema}".users`;
  const seedStore: ScimUser[] = [];
  const seedRaw: ScimUser[] = [];
  for (let i = 0; i < 1000; i++) {
    const u = users.make();
    await store.create(T, u);
    seedStore.push(u);
    const r = users.make();
    await store.create(T, r);
    seedRaw.push(r);
  }
  await pool.query(`ANALYZE ${t}`);
  // Every column the store writes: the raw side computes the userName key and the folded copy
  // too, as any writer of the table must.
  const cols = (u: ScimUser) => [
    T,
    u.id,
    u.userName,
    userNameKey(u.userName),
    u.externalId ?? null,
    u.meta.version,
    u.meta.created,
    u.meta.lastModified,
    JSON.stringify(u),
    foldedJson(u),
  ];
  let k = 0;
  const pick = (list: ScimUser[]) => list[k++ % list.length] as ScimUser;
  const rows: { op: string; store: number; raw: number; prepared: number }[] = [];
  // Each raw statement runs twice: unnamed (parsed and planned every time, pg's default) and
  // as a named prepared statement, which is what the store asks pg for.
  let prepared = false;
  let statement = 0;
  const query = (text: string, values: unknown[]) =>
    prepared ? pool.query({ name: `raw_${statement}`, text, values }) : pool.query(text, values);
  const run = async (
    op: string,
    storeOp: () => Promise<unknown>,
    rawOp: () => Promise<unknown>,
  ) => {
    statement += 1;
    const raw = async () => {
      prepared = false;
      await rawOp();
    };
    const rawPrepared = async () => {
      prepared = true;
      await rawOp();
    };
    const [a = [], b = [], c = []] = await compareInterleaved(
      [storeOp, raw, rawPrepared],
      ROUNDS,
      30_000,
    );
    rows.push({ op, store: median(a), raw: median(b), prepared: median(c) });
  };

  await run(
    'create',
    () => store.create(T, users.make()),
    () =>
      query(
        `INSERT INTO ${t} (tenant, id, user_name, user_name_key, external_id, version, created,
           last_modified, doc, folded)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        cols(users.make()),
      ),
  );
  await run(
    'get by id',
    () => store.get(T, pick(seedStore).id),
    () => query(`SELECT doc FROM ${t} WHERE tenant = $1 AND id = $2`, [T, pick(seedRaw).id]),
  );
  await run(
    'filter userName eq',
    () =>
      store.list(T, {
        startIndex: 1,
        count: 100,
        filter: userNameEq(pick(seedStore).userName.toUpperCase()),
      }),
    () =>
      query(`SELECT doc FROM ${t} WHERE tenant = $1 AND user_name_key = $2 ORDER BY id LIMIT 100`, [
        T,
        userNameKey(pick(seedRaw).userName.toUpperCase()),
      ]),
  );
  // PATCH's write: a replace conditional on the version, as the core issues it.
  const live = new Map<string, ScimUser>();
  const bump = (u: ScimUser) => {
    const current = live.get(u.id) ?? u;
    const next = users.next(current, { displayName: `n${k}` });
    live.set(u.id, next);
    return { next, expected: current.meta.version };
  };
  await run(
    'replace (PATCH write)',
    async () => {
      const { next, expected } = bump(pick(seedStore));
      if (!(await store.replace(T, next, { expectedVersion: expected }))) throw new Error('lost');
    },
    async () => {
      const { next, expected } = bump(pick(seedRaw));
      const r = await query(
        `UPDATE ${t} SET user_name = $3, user_name_key = $4, external_id = $5, version = $6,
           created = $7, last_modified = $8, doc = $9, folded = $10
         WHERE tenant = $1 AND id = $2 AND version = $11`,
        [...cols(next), expected],
      );
      if (r.rowCount !== 1) throw new Error('lost');
    },
  );
  await run(
    'page of 100 (startIndex 1)',
    () => store.list(T, { startIndex: 1, count: 100 }),
    () => query(`SELECT doc FROM ${t} WHERE tenant = $1 ORDER BY id LIMIT 100`, [T]),
  );
  await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
  return rows;
}

/** Loads a tenant of `size` users in its own schema, or reuses it with `--keep`. */
async function loaded(pool: pg.Pool, size: number) {
  const schema = `scimkit_bench_${size}`;
  const executor = pgExecutor(pool);
  const existing = await pool
    .query<{ n: string }>(
      `SELECT COALESCE(sum(n), 0) AS n FROM "${schema}".user_counts WHERE tenant = $1`,
      [T],
    )
    .catch(() => ({ rows: [] as { n: string }[] }));
  let loadMs = 0;
  if (!KEEP || Number(existing.rows[0]?.n) !== size) {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await migrate(executor, { schema });
    loadMs = (await loadThroughBulk(pool, schema, T, size)).loadMs;
    await pool.query(`ANALYZE "${schema}".users`);
  }
  return { size, schema, loadMs, store: new PostgresUserStore({ executor, schema }) };
}

type Loaded = Awaited<ReturnType<typeof loaded>>;

/** The plan and buffer pages of the page and lookup statements, as PostgreSQL reports them. */
async function plans(pool: pg.Pool, at: Loaded) {
  const t = `"${at.schema}".users`;
  const explain = async (sql: string, params: unknown[]) => {
    const r = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
    const plan = (r.rows[0] as { 'QUERY PLAN': [{ Plan: Record<string, unknown> }] })[
      'QUERY PLAN'
    ][0].Plan;
    const nodes: string[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (String(node['Node Type']).includes('Scan'))
        nodes.push(`${String(node['Node Type'])} ${String(node['Index Name'] ?? '')}`.trim());
      for (const child of (node['Plans'] as Record<string, unknown>[] | undefined) ?? [])
        walk(child);
    };
    walk(plan);
    const buffers =
      Number(plan['Shared Hit Blocks'] ?? 0) + Number(plan['Shared Read Blocks'] ?? 0);
    return `${[...new Set(nodes)].join(' + ')}; ${buffers} buffers`;
  };
  // The statement of the store's unfiltered page, as it builds it.
  const page = pageStatement(usersPage(tableNames({ schema: at.schema })), undefined, undefined);
  const lookup = await explain(
    `SELECT doc FROM ${t} WHERE tenant = $1 AND user_name_key = $2 ORDER BY id LIMIT 100`,
    [T, userNameKey(`USER${Math.floor(at.size / 2)}@example.org`)],
  );
  return { page: await explain(page, [T, 100, 0]), lookup };
}

/** Measures the two sizes interleaved, so that load on the machine hits both alike. */
async function atScale(pool: pg.Pool, small: Loaded, large: Loaded) {
  const lookupOf = (at: Loaded) => {
    const names = Array.from(
      { length: 500 },
      (_, i) => `user${Math.floor(((i + 0.5) * at.size) / 500)}@example.org`,
    );
    let i = 0;
    return async () => {
      const page = await at.store.list(T, {
        startIndex: 1,
        count: 100,
        filter: userNameEq(names[i++ % names.length]!.toUpperCase()),
      });
      if (page.totalResults !== 1) throw new Error('userName lookup missed');
    };
  };
  const pageOf = (at: Loaded) => async () => {
    const result = await at.store.list(T, { startIndex: 1, count: 100 });
    if (result.resources.length !== 100 || result.totalResults !== at.size)
      throw new Error('bad page');
  };
  const deepOf = (at: Loaded) => () => at.store.list(T, { startIndex: 10_001 - 100, count: 100 });
  const [l1 = [], l2 = []] = await compareInterleaved(
    [lookupOf(small), lookupOf(large)],
    ROUNDS,
    20_000,
  );
  const [p1 = [], p2 = []] = await compareInterleaved(
    [pageOf(small), pageOf(large)],
    ROUNDS,
    20_000,
  );
  const [d1 = [], d2 = []] = await compareInterleaved([deepOf(small), deepOf(large)], 300, 15_000);
  return [
    {
      at: small,
      lookup: median(l1),
      page: median(p1),
      deep: median(d1),
      plans: await plans(pool, small),
    },
    {
      at: large,
      lookup: median(l2),
      page: median(p2),
      deep: median(d2),
      plans: await plans(pool, large),
    },
  ];
}

async function main() {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const {
    rows: [server],
  } = await pool.query<{ version: string }>('SELECT version()');
  console.log(`# PostgreSQL store benchmark, ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${server?.version.split(' on ')[0]}`,
  );
  console.log(`one connection, ${ROUNDS} interleaved rounds per operation (at most 30 s)\n`);
  console.log(
    '| operation | store | raw pg | raw pg, prepared | store / raw | store / raw prepared |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of SCALE_ONLY ? [] : await storeVsRaw(pool)) {
    const ratio = (x: number) => `${(r.store / x).toFixed(2)}x`;
    console.log(
      `| ${r.op} | ${fmt(r.store)} | ${fmt(r.raw)} | ${fmt(r.prepared)} | ${ratio(r.raw)} | ${ratio(r.prepared)} |`,
    );
  }
  const small = await loaded(pool, SMALL);
  const large = await loaded(pool, LARGE);
  console.log(
    '\n| users in tenant | bulk load | userName eq lookup | page of 100 (startIndex 1) | page at startIndex 9,901 |',
  );
  console.log('|---|---|---|---|---|');
  const results = await atScale(pool, small, large);
  for (const r of results) {
    const load = r.at.loadMs ? `${(r.at.loadMs / 1000).toFixed(1)} s` : '(kept)';
    console.log(
      `| ${r.at.size.toLocaleString('en')} | ${load} | ${fmt(r.lookup)} | ${fmt(r.page)} | ${fmt(r.deep)} |`,
    );
  }
  console.log('\n| users in tenant | page statement plan | userName lookup plan |');
  console.log('|---|---|---|');
  for (const r of results)
    console.log(`| ${r.at.size.toLocaleString('en')} | ${r.plans.page} | ${r.plans.lookup} |`);
  if (!KEEP)
    for (const at of [small, large]) await pool.query(`DROP SCHEMA "${at.schema}" CASCADE`);
  await pool.end();
}

await main();
