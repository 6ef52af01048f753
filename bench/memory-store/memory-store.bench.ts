/**
 * Shows that MemoryUserStore's lookups and page fetches cost the same at 1,000 and at
 * 1,000,000 users: get by id, filter `userName eq` (in another letter case), and a page of 100
 * from the middle of the id order; also a delete and re-create of a user in the middle of the
 * id order (it moves one block of the id order, not all of it) and, for contrast, a filter no
 * index answers, which visits every user.
 *
 * Both stores live in one process and are measured in alternating rounds (a batch on the small
 * store, then the same batch on the large one), so both see the same heap, GC and machine load;
 * each figure is the median over rounds of the time per operation.
 *
 * Run: `node --import tsx bench/memory-store/memory-store.bench.ts`
 */
import os from 'node:os';
import type { Filter } from '../../src/filter/ast.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createUserFactory } from '../../src/testing/index.js';

const SIZES = [1_000, 1_000_000] as const;
const SAMPLES = 1_000;
const TENANT = 'bench';

interface Subject {
  readonly size: number;
  readonly store: MemoryUserStore;
  /** Users spread evenly over the id order, for lookups. */
  readonly sample: readonly ScimUser[];
}

async function build(size: number): Promise<Subject> {
  const store = new MemoryUserStore();
  const users = createUserFactory(TENANT);
  const sample: ScimUser[] = [];
  const every = Math.floor(size / SAMPLES);
  for (let i = 0; i < size; i++) {
    const user = users.make();
    await store.create(TENANT, user);
    if (i % every === 0) sample.push(user);
  }
  return { size, store, sample };
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
const pick = (s: Subject, i: number) => s.sample[i % s.sample.length] as ScimUser;

const OPERATIONS: { name: string; batch: number; rounds: number; run: Operation }[] = [
  {
    name: 'get by id',
    batch: 2_000,
    rounds: 40,
    run: (s, i) => s.store.get(TENANT, pick(s, i).id),
  },
  {
    name: 'filter userName eq',
    batch: 2_000,
    rounds: 40,
    run: async (s, i) => {
      const filter = userNameEq(pick(s, i).userName.toUpperCase());
      const page = await s.store.list(TENANT, { startIndex: 1, count: 100, filter });
      if (page.totalResults !== 1) throw new Error('userName lookup missed');
    },
  },
  {
    name: 'page of 100 (middle)',
    batch: 100,
    rounds: 40,
    run: async (s) => {
      const page = await s.store.list(TENANT, { startIndex: s.size / 2, count: 100 });
      if (page.resources.length !== 100) throw new Error('short page');
    },
  },
  {
    name: 'delete + re-create (middle)',
    batch: 500,
    rounds: 40,
    run: async (s) => {
      const victim = s.sample[s.sample.length / 2] as ScimUser;
      await s.store.delete(TENANT, victim.id);
      await s.store.create(TENANT, victim);
    },
  },
  {
    name: 'filter displayName eq (a scan, for contrast)',
    batch: 1,
    rounds: 7,
    run: (s) => s.store.list(TENANT, { startIndex: 1, count: 100, filter: displayNameEq }),
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

const builtAt = performance.now();
const subjects: Subject[] = [];
for (const size of SIZES) subjects.push(await build(size));
const buildSeconds = (performance.now() - builtAt) / 1000;
const [small, large] = subjects as [Subject, Subject];

const rows: string[] = [];
for (const { name, batch, rounds, run } of OPERATIONS) {
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
  `\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores (${cpu}) · Node ${process.version} · load average ${os.loadavg()[0]?.toFixed(1)}`,
);
console.log(
  `built ${SIZES.map((n) => n.toLocaleString('en-US')).join(' + ')} users in ${buildSeconds.toFixed(1)} s\n`,
);
console.log(
  '| operation | median µs/op at 1,000 users | median µs/op at 1,000,000 users | ratio |',
);
console.log('|---|---:|---:|---:|');
for (const row of rows) console.log(row);
