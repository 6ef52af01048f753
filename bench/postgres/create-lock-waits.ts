// Concurrent creates of one tenant through `scim.handle` on PostgresUserStore (one or two
// instances, each with its own pg Pool, on one database), with `pg_stat_activity` sampled
// meanwhile: creates per second, and the share of the instances' active sessions waiting on a
// lock. `--counts single` builds the schema as it was before migration 10 (one counter row per
// tenant), `sharded` (the default) with every migration, so the two are compared on the same
// code and machine.
//
//   node --import tsx bench/postgres/create-lock-waits.ts --counts single --instances 1
//   node --import tsx bench/postgres/create-lock-waits.ts --counts sharded --instances 2
//
// Env: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). The schema
// (`--schema`, default scimkit_lock_bench) is dropped and re-created.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createScim, staticApiKeys } from '../../src/index.js';
import { PostgresUserStore, pgExecutor } from '../../src/stores/postgres/index.js';
import { applyMigrations } from '../../src/stores/postgres/migrate.js';
import { migrations } from '../../src/stores/postgres/migrations.js';

const { values: args } = parseArgs({
  options: {
    counts: { type: 'string', default: 'sharded' },
    instances: { type: 'string', default: '1' },
    // Concurrent creates per instance, and its pool size.
    concurrency: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '10' },
    schema: { type: 'string', default: 'scimkit_lock_bench' },
  },
});
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = args.schema;
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`--schema: ${schema}`);
const instances = Number(args.instances);
const concurrency = Number(args.concurrency);
const seconds = Number(args.seconds);
const APP = `scimkit-lock-bench-${process.pid}`;

const admin = new pg.Pool({ connectionString: url, max: 2 });
await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
const list = args.counts === 'single' ? migrations.filter((m) => m.version < 10) : migrations;
await applyMigrations(pgExecutor(admin), { schema }, list);

const pools: pg.Pool[] = [];
const services = Array.from({ length: instances }, () => {
  const pool = new pg.Pool({ connectionString: url, max: concurrency, application_name: APP });
  pools.push(pool);
  return createScim({
    store: new PostgresUserStore({ executor: pgExecutor(pool), schema }),
    verifier: staticApiKeys([{ key: 'k', tenant: 'bench' }]),
    mailer: { sendWelcome: async () => undefined },
    userNameRule: 'email',
  });
});
const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };

let created = 0;
let failed = 0;
let sequence = 0;
const stopAt = Date.now() + seconds * 1000;
async function creator(scim: (typeof services)[number]): Promise<void> {
  while (Date.now() < stopAt) {
    sequence += 1;
    const response = await scim.handle({
      method: 'POST',
      path: '/Users',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `c${process.pid}-${sequence}@example.org`,
        active: true,
      }),
    });
    if (response.status === 201) created += 1;
    else failed += 1;
  }
}

// Samples the instances' sessions every 20 ms until the creates stop.
const samples = { active: 0, lock: 0, events: new Map<string, number>() };
async function sampler(): Promise<void> {
  while (Date.now() < stopAt) {
    const { rows } = await admin.query<{ type: string | null; event: string | null }>(
      `SELECT wait_event_type AS type, wait_event AS event FROM pg_stat_activity
       WHERE application_name = $1 AND state = 'active'`,
      [APP],
    );
    for (const { type, event } of rows) {
      samples.active += 1;
      if (type === 'Lock') samples.lock += 1;
      const key = `${type ?? 'CPU'}:${event ?? '-'}`;
      samples.events.set(key, (samples.events.get(key) ?? 0) + 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const started = performance.now();
await Promise.all([
  sampler(),
  ...services.flatMap((scim) => Array.from({ length: concurrency }, () => creator(scim))),
]);
const elapsed = (performance.now() - started) / 1000;
const { rows } = await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.users`);
const top = [...samples.events]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 5)
  .map(([key, n]) => `${key} ${((100 * n) / Math.max(1, samples.active)).toFixed(0)}%`);
console.log(
  JSON.stringify({
    counts: args.counts,
    instances,
    concurrency,
    createsPerSecond: Math.round(created / elapsed),
    failed,
    stored: rows[0]?.n,
    lockWaitShare: Number((samples.lock / Math.max(1, samples.active)).toFixed(3)),
    waits: top,
  }),
);
await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
await Promise.all([admin.end(), ...pools.map((pool) => pool.end())]);
process.exit(0);
