/**
 * A whole-list replace of a large group, through `scim.handle` in-process and the public API
 * only, so the same script runs on any checkout (copy it into another one's bench/groups/ to
 * compare): a group of `--size` members (default 100,000) in a tenant of its own, on the memory
 * store, PGlite, and the PostgreSQL server of SCIMKIT_TEST_DATABASE_URL or DATABASE_URL when
 * set (in a schema of its own, dropped after). Each round times, in turn:
 *
 * - PUT /Groups/{id} replacing every member by as many others (A → B),
 * - PATCH `{op: replace, path: members, value: [the first ones]}` (B → A),
 * - PUT with the same members and a new displayName (no membership change).
 *
 * `--stores memory,PGlite` runs only the stores named (the server's name is `server`).
 * One round of warm-up, then `--rounds` rounds (default 3) or until `--budget-ms` (default
 * 300,000) per store has passed; medians. Prints the load average before and after. The whole
 * run stops after `--limit-ms` (default 1,800,000) whatever it is doing.
 *
 *   node --import tsx bench/groups/replace-large.ts [--size 100000] [--rounds 3]
 */
import { loadavg } from 'node:os';
import { createScim, staticApiKeys, type ScimRequest } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresUserStore, migrate, type QueryExecutor } from '../../src/stores/postgres/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { onEveryPostgres } from './every-postgres.js';
import { numberArg } from './membership-fixtures.js';
import { median } from '../postgres/measure.js';

const SIZE = numberArg('--size', 100_000);
const ROUNDS = numberArg('--rounds', 3);
const BUDGET_MS = numberArg('--budget-ms', 300_000);
const LIMIT_MS = numberArg('--limit-ms', 1_800_000);
const STORES = (() => {
  const at = process.argv.indexOf('--stores');
  return at > 0
    ? new Set(
        String(process.argv[at + 1])
          .toLowerCase()
          .split(','),
      )
    : undefined;
})();
const runs = (name: string) =>
  !STORES || STORES.has(name === 'PostgreSQL server' ? 'server' : name.toLowerCase());
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const TENANT = 'bench-replace';
const OPERATIONS = [
  'PUT replace every member (A → B)',
  'PATCH replace members (B → A)',
  'PUT same members, new displayName',
] as const;

// A run that outlives its limit is stopped, not left to hold the machine.
setTimeout(() => {
  console.error(`\nstopped: the run passed --limit-ms ${LIMIT_MS}`);
  process.exit(2);
}, LIMIT_MS).unref();

type UserStore = Parameters<typeof createScim>[0]['store'];

/** The users a round moves in and out: `first` in the group at the start, `second` outside. */
interface Members {
  readonly first: readonly string[];
  readonly second: readonly string[];
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');

async function measure(name: string, store: UserStore, members: Members): Promise<void> {
  const scim = createScim({
    store,
    verifier: staticApiKeys([{ key: TENANT, tenant: TENANT }]),
    limits: {
      maxBodyBytes: 256 * 1024 * 1024,
      maxAttributeValues: 4 * SIZE,
      maxPatchWork: Number.MAX_SAFE_INTEGER,
      maxResponseBytes: 256 * 1024 * 1024,
    },
  });
  const send = async (want: number, request: Partial<ScimRequest>) => {
    const reply = await scim.handle({
      method: 'GET',
      path: '/Groups',
      query: '',
      headers: { authorization: `Bearer ${TENANT}`, 'content-type': 'application/scim+json' },
      baseUrl: 'http://localhost',
      ...request,
    });
    if (reply.status !== want)
      throw new Error(`${name}: ${reply.status} ${String(reply.body).slice(0, 500)}`);
    return reply;
  };
  const list = (ids: readonly string[]) => ids.map((value) => ({ value }));
  const started = performance.now();
  const created = await send(201, {
    method: 'POST',
    body: JSON.stringify({
      schemas: [GROUP_SCHEMA],
      displayName: 'Everyone',
      members: list(members.first),
    }),
  });
  const id = (JSON.parse(String(created.body)) as { id: string }).id;
  const path = `/Groups/${id}`;
  console.log(`\n(${name}: group of ${SIZE} created in ${seconds(performance.now() - started)})`);

  const putSecond = JSON.stringify({
    schemas: [GROUP_SCHEMA],
    displayName: 'Everyone',
    members: list(members.second),
  });
  const patchFirst = JSON.stringify({
    schemas: [PATCH_OP],
    Operations: [{ op: 'replace', path: 'members', value: list(members.first) }],
  });
  const putRenamed = (round: number) =>
    JSON.stringify({
      schemas: [GROUP_SCHEMA],
      displayName: `Everyone ${round}`,
      members: list(members.first),
    });
  const steps = [
    () => send(200, { method: 'PUT', path, body: putSecond }),
    () => send(204, { method: 'PATCH', path, body: patchFirst }),
    (round: number) => send(200, { method: 'PUT', path, body: putRenamed(round) }),
  ];
  const times = steps.map((): number[] => []);
  const end = performance.now() + BUDGET_MS;
  // Round 0 warms up; each round leaves the group as it found it (members A).
  for (let round = 0; round <= ROUNDS && performance.now() < end; round++) {
    for (const [i, step] of steps.entries()) {
      const t0 = performance.now();
      await step(round);
      if (round > 0) times[i]?.push(performance.now() - t0);
    }
  }
  const rounds = times[0]?.length ?? 0;
  console.log(`\n### ${name}, ${SIZE.toLocaleString('en')} members; ${rounds} rounds\n`);
  console.log('| operation | median | fastest – slowest |');
  console.log('| --- | --- | --- |');
  for (const [i, label] of OPERATIONS.entries()) {
    const each = times[i] ?? [];
    const range = `${seconds(Math.min(...each))} – ${seconds(Math.max(...each))}`;
    console.log(`| ${label} | ${seconds(median(each))} | ${range} |`);
  }
}

const seconds = (ms: number) =>
  ms < 10_000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;

// Users u000000001 … u(2 × SIZE): the first SIZE start in the group, the others replace them.
const ids = Array.from({ length: 2 * SIZE }, (_, i) => `u${String(i + 1).padStart(9, '0')}`);
const members: Members = { first: ids.slice(0, SIZE), second: ids.slice(SIZE) };

/** Loads the users through the store's own calls (memory). */
async function loadMemory(store: MemoryUserStore): Promise<void> {
  const users = createUserFactory();
  for (const id of ids) await store.create(TENANT, { ...users.make(), id });
}

/** Loads the users with one set-based statement (PostgreSQL), as the store writes rows. */
async function loadSql(executor: QueryExecutor, schema: string): Promise<void> {
  await executor.query(
    `INSERT INTO "${schema}".users
       (tenant, id, user_name, user_name_key, version, created, last_modified, doc, folded)
     SELECT $1, id, id || '@example.org', id || '@example.org', 'W/"1"', now(), now(),
       jsonb_build_object('id', id, 'userName', id || '@example.org',
         'meta', jsonb_build_object('resourceType', 'User', 'version', 'W/"1"')),
       jsonb_build_object('id', id, 'userName', id || '@example.org',
         'meta', jsonb_build_object('resourceType', 'user', 'version', 'w/"1"'))
     FROM (SELECT 'u' || lpad(i::text, 9, '0') AS id FROM generate_series(1, $2::int) AS i) AS g`,
    [TENANT, 2 * SIZE],
  );
  await executor.query(`ANALYZE "${schema}".users`);
}

console.log(`size ${SIZE}, rounds ${ROUNDS}, at most ${BUDGET_MS} ms per store; medians`);
console.log(`load average (1 / 5 / 15 min) before: ${load()}`);
if (runs('memory')) {
  const memory = new MemoryUserStore();
  await loadMemory(memory);
  await measure('memory', memory, members);
}
// PGlite starts only when asked for.
if (runs('PGlite') || runs('PostgreSQL server'))
  await onEveryPostgres(async (name, executor) => {
    if (!runs(name)) return;
    const schema = `scimkit_bench_replace_${Math.random().toString(36).slice(2, 8)}`;
    try {
      await migrate(executor, { schema });
      await loadSql(executor, schema);
      await measure(name, new PostgresUserStore({ executor, schema }), members);
    } finally {
      await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
console.log(`\nload average after: ${load()}`);
