/* global process */
// scimkit-node-pg without the welcome email, for measuring what the event log costs on its
// own: this server (scimkit-node-pg-log) keeps the PostgreSQL store's log, so every write
// records its events; node-pg-no-log.mjs (scimkit-node-pg-no-log) hides it (`events` and
// `subscriptions` absent: the core builds no event and the store records none). Neither has a
// mailer; scimkit-node-pg (node-pg.mjs) has one. Otherwise as node-pg.mjs: a schema of its
// own (SCIMKIT_PG_SCHEMA), a Pool of SCIMKIT_PG_POOL.
//
//   npm run bench:kit -- --servers raw-pg,scimkit-node-pg-no-log,scimkit-node-pg-log,scimkit-node-pg --scenarios create,patch
import { createServer } from 'node:http';
import pg from 'pg';
import { createScim, staticApiKeys } from 'scimkit';
import { scimNode } from 'scimkit/node';
import { PostgresUserStore, pgExecutor } from 'scimkit/postgres';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, TOKEN, preseed, ready } from './service.mjs';

const mode = globalThis.scimkitEvents ?? 'log';
const schema =
  process.env.SCIMKIT_PG_SCHEMA ?? `scimkit_bench_${mode === 'off' ? 'no_log' : 'log'}`;
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`SCIMKIT_PG_SCHEMA: ${schema}`);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  max: Number(process.env.SCIMKIT_PG_POOL ?? 16),
});
await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
const store = new PostgresUserStore({ executor: pgExecutor(pool), schema });
await store.migrate();
const hidden = new Set(mode === 'off' ? ['events', 'subscriptions'] : []);
// The store's methods run on the store itself (they use private fields), not on the proxy.
const served = new Proxy(store, {
  get: (target, key) => {
    if (hidden.has(key)) return undefined;
    const value = Reflect.get(target, key, target);
    return typeof value === 'function' ? value.bind(target) : value;
  },
  has: (target, key) => !hidden.has(key) && Reflect.has(target, key),
});
const scim = createScim({
  store: served,
  verifier: staticApiKeys([{ key: TOKEN, tenant: 'bench' }]),
  basePath: PREFIX,
  userNameRule: 'email',
});

await preseed(scim);
const server = createServer(scimNode(scim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () =>
  ready(mode === 'off' ? 'scimkit-node-pg-no-log' : 'scimkit-node-pg-log', server),
);
