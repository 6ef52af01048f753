/**
 * Measures what a request pays to authenticate with a key store: `verify` of `staticApiKeys`,
 * of `MemoryKeyStore`, of `PostgresKeyStore` on PGlite served from its verify cache (every
 * request after the first within `cacheMs`) and without the cache (one query per request), and,
 * for scale, a whole `GET /Users/{id}` through `scim.handle` with the static and the cached
 * PostgreSQL verifier.
 *
 * Run: `node --import tsx bench/keys/verify.bench.ts`
 */
import os from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { Bench } from 'tinybench';
import { createScim, MemoryKeyStore, staticApiKeys, type ApiKeyVerifier } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresKeyStore, pgliteExecutor } from '../../src/stores/postgres/index.js';

const db = await PGlite.create();
const executor = pgliteExecutor(db);
const cached = new PostgresKeyStore({ executor, migrate: true });
const { secret } = await cached.issue('district-42');
const uncached = new PostgresKeyStore({ executor, cacheMs: 0 });
const memory = new MemoryKeyStore();
const memorySecret = (await memory.issue('district-42')).secret;
const fixed = staticApiKeys([{ key: secret, tenant: 'district-42' }]);

// One service per verifier over one store holding one user.
const store = new MemoryUserStore();
async function service(verifier: ApiKeyVerifier) {
  const scim = createScim({ store, verifier, mailer: { sendWelcome: async () => undefined } });
  return scim;
}
const scimFixed = await service(fixed);
const scimCached = await service(cached);
const created = await scimFixed.handle({
  method: 'POST',
  path: '/Users',
  query: {},
  headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' },
  body: JSON.stringify({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: 'ada@example.org',
  }),
  baseUrl: 'http://localhost',
});
const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
const get = (scim: typeof scimFixed) => () =>
  scim.handle({
    method: 'GET',
    path: `/Users/${id}`,
    query: {},
    headers: { authorization: `Bearer ${secret}` },
    baseUrl: 'http://localhost',
  });

const bench = new Bench({ time: 1500, warmupTime: 500 });
bench
  .add('staticApiKeys verify', () => fixed.verify(secret))
  .add('MemoryKeyStore verify', () => memory.verify(memorySecret))
  .add('PostgresKeyStore verify, from the cache (PGlite)', () => cached.verify(secret))
  .add('PostgresKeyStore verify, cacheMs 0 (one PGlite query)', () => uncached.verify(secret))
  .add('GET /Users/{id} with staticApiKeys', get(scimFixed))
  .add('GET /Users/{id} with PostgresKeyStore (cached)', get(scimCached));
await bench.run();

console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}`);
console.table(
  bench.tasks.map((task) => ({
    task: task.name,
    'median µs': (
      ((task.result as { latency?: { p50?: number } }).latency?.p50 ?? NaN) * 1000
    ).toFixed(2),
  })),
);
await Promise.all([scimFixed.close(), scimCached.close()]);
await db.close();
