/**
 * Measures offboarding a tenant: `scim.tenants.export` (read out as NDJSON text, discarded) and
 * `scim.tenants.delete` of a tenant of USERS users and GROUPS groups of MEMBERS users each, on
 * the memory store and on PGlite, beside a second tenant of the same size that stays. Prints the
 * median of RUNS runs per store: resources a second, and, from a second export pass that collects
 * garbage every 500 lines, the most heap the export kept over what was live before it: a figure
 * that stays flat as the tenant grows.
 *
 * Run: `node --expose-gc --import tsx bench/tenants/offboard.ts [USERS]` (default 2,000)
 */
import { PGlite } from '@electric-sql/pglite';
import { createScim, staticApiKeys, toNdjson, type UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresUserStore, pgliteExecutor } from '../../src/stores/postgres/index.js';

const USERS = Number(process.argv[2] ?? 2000);
const GROUPS = 20;
const MEMBERS = 50;
const RUNS = 3;
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';

let serial = 0;
const nextId = () => `b${String(Date.now()).padStart(14, '0')}${String(++serial).padStart(8, '0')}`;

// Written through the store contracts: the seed is not what is measured.
async function seed(store: UserStore, tenant: string): Promise<void> {
  const at = new Date().toISOString();
  const meta = <T extends string>(resourceType: T) => ({
    resourceType,
    created: at,
    lastModified: at,
    version: 'W/"1"',
  });
  const ids: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const id = nextId();
    ids.push(id);
    await store.create(tenant, {
      schemas: [USER_SCHEMA, ACCOUNT],
      id,
      userName: `person${i}@${tenant}.example`,
      active: false,
      [ACCOUNT]: { status: 'Pending' },
      meta: meta('User'),
    });
  }
  for (let g = 0; g < GROUPS; g++) {
    const members = ids.slice(g * MEMBERS, (g + 1) * MEMBERS).map((value) => ({ value }));
    const group = {
      schemas: [GROUP_SCHEMA],
      id: nextId(),
      displayName: `g${g}`,
      meta: meta('Group'),
    };
    await store.groups!.create(tenant, group, members);
  }
}

// The most heap live during an export over what was live before it (needs --expose-gc).
async function keptHeap(scim: ReturnType<typeof createScim>): Promise<number> {
  const gc = globalThis.gc ?? (() => undefined);
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  let lines = 0;
  for await (const line of toNdjson(scim.tenants.export('leaving'))) {
    if (++lines % 500 === 0 && line.length > 0) {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }
  }
  return peak;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(
  name: string,
  open: () => Promise<{ store: UserStore; close(): Promise<void> }>,
) {
  const exportRates: number[] = [];
  const deleteRates: number[] = [];
  const heaps: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { store, close } = await open();
    const scim = createScim({ store, verifier: staticApiKeys([{ key: 'k', tenant: 'x' }]) });
    await seed(store, 'leaving');
    await seed(store, 'staying');
    let lines = 0;
    let started = performance.now();
    for await (const line of toNdjson(scim.tenants.export('leaving')))
      lines += line.length > 0 ? 1 : 0;
    exportRates.push(lines / ((performance.now() - started) / 1000));
    heaps.push(await keptHeap(scim));
    started = performance.now();
    const done = await scim.tenants.delete('leaving');
    const deleted = Object.values(done.resources).reduce((a, b) => a + b, 0);
    deleteRates.push(deleted / ((performance.now() - started) / 1000));
    await close();
  }
  console.log(
    `${name.padEnd(7)} export ${Math.round(median(exportRates))} resources/s, heap kept ≤ ${Math.round(median(heaps) / 1024)} KiB; ` +
      `delete ${Math.round(median(deleteRates))} resources/s (${USERS} users, ${GROUPS} groups of ${MEMBERS})`,
  );
}

await measure('memory', () =>
  Promise.resolve({ store: new MemoryUserStore(), close: () => Promise.resolve() }),
);
await measure('pglite', async () => {
  const db = await PGlite.create();
  return {
    store: new PostgresUserStore({ executor: pgliteExecutor(db), migrate: true }),
    close: () => db.close(),
  };
});
