/* global process */
// scimkit on plain node:http over PostgresUserStore and a `pg` Pool, for the shared benchmark
// kit beside its `raw-pg` baseline: the same database (DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test) and pool size (SCIMKIT_PG_POOL, default 16, as
// RAW_PG_POOL). On start it drops and re-creates its schema (SCIMKIT_PG_SCHEMA, default
// scimkit_bench), as raw-pg does its table.
import { createServer } from 'node:http';
import pg from 'pg';
import { scimNode } from 'scimkit/node';
import { PostgresUserStore, pgExecutor } from 'scimkit/postgres';
import { HOST, KEEP_ALIVE_MS, PORT, preseed, ready, serviceOn } from './service.mjs';

const schema = process.env.SCIMKIT_PG_SCHEMA ?? 'scimkit_bench';
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`SCIMKIT_PG_SCHEMA: ${schema}`);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  max: Number(process.env.SCIMKIT_PG_POOL ?? 16),
});
await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
const store = new PostgresUserStore({ executor: pgExecutor(pool), schema });
await store.migrate();
const scim = serviceOn(store);

await preseed(scim);
const server = createServer(scimNode(scim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () => ready('scimkit-node-pg', server));
