/**
 * Shows what MemoryUserStore's reads cost at 10,000 and at 1,000,000 users: get by id, filter
 * `userName eq` (in another letter case), the first page of 100 and the last (deep) one, each
 * on the store and through `scim.handle` (the whole request without HTTP: what the shared kit's
 * scaling run times over loopback); also a delete and re-create of a user in the middle of the
 * id order (it moves one block of the id order, not all of it) and, for contrast, a filter no
 * index answers, which visits every user. The users are the shared kit's, added straight to the
 * store as the core stores them (`kit-service.ts`: creating a million through requests takes
 * too long on a loaded machine).
 *
 * Both services live in one process and are measured in alternating rounds (a batch on the
 * small one, then the same batch on the large one), so both see the same heap, GC and machine
 * load; each figure is the median over rounds of the time per operation.
 *
 * Run: `node --expose-gc --max-old-space-size=8192 --import tsx bench/memory-store/memory-store.bench.ts`
 */
import os from 'node:os';
import type { Filter } from '../../src/filter/ast.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { BASE_URL, HEADERS, PREFIX, TENANT, kitService } from './kit-service.js';

const SIZES = [10_000, 1_000_000] as const;
const SAMPLES = 1_000;

interface Sampled {
  readonly id: string;
  readonly userName: string;
}

interface Subject {
  readonly size: number;
  readonly service: ReturnType<typeof kitService>;
  /** Users spread evenly over the id order, for lookups. */
  readonly sample: readonly Sampled[];
}

async function build(size: number): Promise<Subject> {
  const service = kitService();
  const sample: Sampled[] = [];
  const every = Math.floor(size / SAMPLES);
  for (let i = 0; i < size; i++) {
    const user = await service.add(i);
    if (i % every === 0) sample.push(user);
  }
  return { size, service, sample };
}

type Operation = (subject: Subject, i: number) => Promise<unknown>;

const userNameEq = (value: string): Filter => ({
  kind: 'compare',
  path: { attribute: 'userName' },
  op: 'eq',
  value,
});
const displayNameEq: Filter = {
  kind: 'compare',
  path: { attribute: 'displayName' },
  op: 'eq',
  value: 'nobody',
};
const pick = (s: Subject, i: number) => s.sample[i % s.sample.length] as Sampled;
const deep = (s: Subject) => s.size - 99;

async function request(s: Subject, path: string, query?: string): Promise<void> {
  const response = await s.service.scim.handle({
    method: 'GET',
    path: `${PREFIX}${path}`,
    ...(query === undefined ? {} : { query }),
    headers: HEADERS,
    baseUrl: BASE_URL,
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status} ${response.body}`);
}

async function page(s: Subject, startIndex: number): Promise<void> {
  const found = await s.service.store.list(TENANT, { startIndex, count: 100 });
  if (found.resources.length !== 100) throw new Error('short page');
}

const OPERATIONS: { name: string; batch: number; rounds: number; run: Operation }[] = [
  {
    name: 'store: get by id',
    batch: 2_000,
    rounds: 20,
    run: (s, i) => s.service.store.get(TENANT, pick(s, i).id),
  },
  {
    name: 'store: filter userName eq',
    batch: 2_000,
    rounds: 20,
    run: async (s, i) => {
      const filter = userNameEq(pick(s, i).userName.toUpperCase());
      const found = await s.service.store.list(TENANT, { startIndex: 1, count: 100, filter });
      if (found.totalResults !== 1) throw new Error('userName lookup missed');
    },
  },
  { name: 'store: first page of 100', batch: 200, rounds: 20, run: (s) => page(s, 1) },
  { name: 'store: deep page of 100', batch: 200, rounds: 20, run: (s) => page(s, deep(s)) },
  {
    name: 'handle: GET /Users/{id}',
    batch: 500,
    rounds: 20,
    run: (s, i) => request(s, `/Users/${pick(s, i).id}`),
  },
  {
    name: 'handle: filter userName eq',
    batch: 500,
    rounds: 20,
    run: (s, i) =>
      request(s, '/Users', `filter=${encodeURIComponent(`userName eq "${pick(s, i).userName}"`)}`),
  },
  {
    name: 'handle: first page of 100',
    batch: 50,
    rounds: 20,
    run: (s) => request(s, '/Users', 'startIndex=1&count=100'),
  },
  {
    name: 'handle: deep page of 100',
    batch: 50,
    rounds: 20,
    run: (s) => request(s, '/Users', `startIndex=${deep(s)}&count=100`),
  },
  {
    name: 'store: delete + re-create (middle)',
    batch: 500,
    rounds: 20,
    run: async (s) => {
      const { store } = s.service;
      const victim = (await store.get(TENANT, pick(s, SAMPLES / 2).id)) as ScimUser;
      await store.delete(TENANT, victim.id);
      await store.create(TENANT, victim);
    },
  },
  {
    name: 'store: filter displayName eq (a scan, for contrast)',
    batch: 1,
    rounds: 7,
    run: (s) => s.service.store.list(TENANT, { startIndex: 1, count: 100, filter: displayNameEq }),
  },
];

async function timePerOperation(subject: Subject, run: Operation, batch: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < batch; i++) await run(subject, i);
  return ((performance.now() - started) * 1000) / batch;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const loadAtStart = os.loadavg()[0]?.toFixed(1);
const builtAt = performance.now();
const subjects: Subject[] = [];
for (const size of SIZES) subjects.push(await build(size));
const mib = (process.memoryUsage().rss / 1024 / 1024).toFixed(0);
const buildSeconds = (performance.now() - builtAt) / 1000;
const [small, large] = subjects as [Subject, Subject];

// Collected before each operation's rounds, so that they time the store, not the tail of the
// building's garbage collection (a million users leave the collector marking for seconds).
const gc = (globalThis as { gc?: () => void }).gc;
const rows: string[] = [];
for (const { name, batch, rounds, run } of OPERATIONS) {
  gc?.();
  await timePerOperation(small, run, batch); // warm-up
  await timePerOperation(large, run, batch);
  const times: [number[], number[]] = [[], []];
  for (let r = 0; r < rounds; r++) {
    times[0].push(await timePerOperation(small, run, batch));
    times[1].push(await timePerOperation(large, run, batch));
  }
  const [a, b] = [median(times[0]), median(times[1])];
  rows.push(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(2)} |`);
}

const cpu = os.cpus()[0]?.model ?? 'unknown';
console.log(
  `\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores (${cpu}) · Node ${process.version} · load average ${loadAtStart} at the start, ${os.loadavg()[0]?.toFixed(1)} at the end`,
);
console.log(
  `built ${SIZES.map((n) => n.toLocaleString('en-US')).join(' + ')} users in ${buildSeconds.toFixed(1)} s (RSS ${mib} MiB)\n`,
);
console.log(
  '| operation | median µs/op at 10,000 users | median µs/op at 1,000,000 users | ratio |',
);
console.log('|---|---:|---:|---:|');
for (const row of rows) console.log(row);
for (const { service } of subjects) await service.scim.close();
