// scimkit on plain node:http over PostgresUserStore on PGlite (PostgreSQL in process, in
// memory), the store's embedded default, for the shared benchmark kit.
import { createServer } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { scimNode } from 'scimkit/node';
import { PostgresUserStore, pgliteExecutor } from 'scimkit/postgres';
import { HOST, KEEP_ALIVE_MS, PORT, preseed, ready, serviceOn } from './service.mjs';

const store = new PostgresUserStore({ executor: pgliteExecutor(await PGlite.create()) });
await store.migrate();
const scim = serviceOn(store);

await preseed(scim);
const server = createServer(scimNode(scim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () => ready('scimkit-node-pglite', server));
