/**
 * Shows that listing through the whole service with `filter=userName eq "..."` and
 * `filter=externalId eq "..."` costs the same at 1,000 and at 1,000,000 users on the memory
 * store: the request goes through `scim.handle` (auth, query parsing, filter parse and check,
 * the store's index lookup, projection of the response, JSON), exactly as an IdP's lookup does.
 *
 * Both services live in one process and are measured in alternating rounds, so both see the
 * same heap, GC and machine load; each figure is the median over rounds of the time per request.
 *
 * Run: `node --import tsx bench/list/list.bench.ts` (building a million users takes a minute)
 */
import os from 'node:os';
import { createScim, staticApiKeys, type Scim } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createUserFactory } from '../../src/testing/index.js';

const SIZES = [1_000, 1_000_000] as const;
const SAMPLES = 1_000;
const ROUNDS = 30;
const BATCH = 500;
const TENANT = 'bench';
const headers = { authorization: 'Bearer bench-key' };

interface Subject {
  readonly size: number;
  readonly scim: Scim;
  readonly userNames: string[];
  readonly externalIds: string[];
}

async function build(size: number): Promise<Subject> {
  const store = new MemoryUserStore();
  const users = createUserFactory();
  const every = Math.floor(size / SAMPLES);
  const userNames: string[] = [];
  const externalIds: string[] = [];
  for (let i = 0; i < size; i++) {
    const user = users.make({ externalId: `ext-${i}` });
    await store.create(TENANT, user);
    if (i % every === 0) {
      userNames.push(user.userName.toUpperCase());
      externalIds.push(`ext-${i}`);
    }
  }
  const scim = createScim({
    store,
    verifier: staticApiKeys([{ key: 'bench-key', tenant: TENANT }]),
    mailer: { sendWelcome: async () => undefined },
  });
  return { size, scim, userNames, externalIds };
}

const query = (attribute: string, value: string) =>
  `filter=${encodeURIComponent(`${attribute} eq "${value}"`)}`;

const OPERATIONS = [
  {
    name: 'GET /Users?filter=userName eq',
    values: (s: Subject) => s.userNames,
    attribute: 'userName',
  },
  {
    name: 'GET /Users?filter=externalId eq',
    values: (s: Subject) => s.externalIds,
    attribute: 'externalId',
  },
];

async function timeBatch(
  subject: Subject,
  attribute: string,
  values: string[],
  offset: number,
): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) {
    const value = values[(offset + i) % values.length] as string;
    const response = await subject.scim.handle({
      method: 'GET',
      path: '/Users',
      query: query(attribute, value),
      headers,
    });
    if (response.status !== 200 || !response.body?.includes('"totalResults":1'))
      throw new Error('lookup failed');
  }
  return Number(process.hrtime.bigint() - start) / 1000 / BATCH;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

async function main(): Promise<void> {
  const started = Date.now();
  const subjects: Subject[] = [];
  for (const size of SIZES) subjects.push(await build(size));
  console.log(
    `built ${SIZES.join(' and ')} users in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const rows: string[] = [];
  for (const op of OPERATIONS) {
    const samples = new Map<number, number[]>(SIZES.map((s) => [s, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of subjects) {
        samples
          .get(subject.size)
          ?.push(await timeBatch(subject, op.attribute, op.values(subject), round * BATCH));
      }
    }
    const [small, large] = SIZES.map((s) => median(samples.get(s) ?? []));
    rows.push(
      `| ${op.name} | ${small?.toFixed(2)} | ${large?.toFixed(2)} | ${((large ?? 0) / (small ?? 1)).toFixed(2)} |`,
    );
  }
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores · Node ${process.version} · load average ${os.loadavg()[0]?.toFixed(1)}\n`,
  );
  console.log('| request | median µs at 1,000 users | median µs at 1,000,000 users | ratio |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
}

await main();
