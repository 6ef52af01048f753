/* global process */
// scimkit on plain node:http over PostgresUserStore and a `pg` Pool, for the shared benchmark
// kit beside its `raw-pg` baseline: the same database (DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test) and pool size (SCIMKIT_PG_POOL, default 16, as
// RAW_PG_POOL). On start it drops and re-creates its schema (SCIMKIT_PG_SCHEMA, default
// scimkit_bench), as raw-pg does its table.
//
// Two variants measure what the event log costs on its own (see bench/RESULTS.md): they set
// `globalThis.scimkitEvents` and import this file. `log` (node-pg-log.mjs) keeps the store's
// log but sends no welcome email; `off` (node-pg-no-log.mjs) also hides the log (`events` and
// `subscriptions` absent: the core builds no event and the store records none).
import { createServer } from 'node:http';
import pg from 'pg';
import { scimNode } from 'scimkit/node';
import { PostgresUserStore, pgExecutor } from 'scimkit/postgres';
import { HOST, KEEP_ALIVE_MS, PORT, preseed, ready, serviceOn } from './service.mjs';

const variant = globalThis.scimkitEvents;
const name =
  variant === undefined
    ? 'scimkit-node-pg'
    : `scimkit-node-pg-${variant === 'off' ? 'no-log' : 'log'}`;
const schema =
  process.env.SCIMKIT_PG_SCHEMA ??
  name.replaceAll('-', '_').replace('scimkit_node_pg', 'scimkit_bench');
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`SCIMKIT_PG_SCHEMA: ${schema}`);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  max: Number(process.env.SCIMKIT_PG_POOL ?? 16),
});
await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
const store = new PostgresUserStore({ executor: pgExecutor(pool), schema });
await store.migrate();
const scim = variant === undefined ? serviceOn(store) : withoutMail(variant === 'off');

await preseed(scim);
const server = createServer(scimNode(scim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () => ready(name, server));

// The service without a mailer, on the store or, with `hideLog`, on the store without its log.
function withoutMail(hideLog) {
  const hidden = new Set(hideLog ? ['events', 'subscriptions'] : []);
  // The store's methods run on the store itself (they use private fields), not on the proxy.
  const served = new Proxy(store, {
    get: (target, key) => {
      if (hidden.has(key)) return undefined;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has: (target, key) => !hidden.has(key) && Reflect.has(target, key),
  });
  return serviceOn(served, { mail: false });
}
