/**
 * Times the costliest list request each adversarial shape can send that the memory store's
 * default `maxFilterWork` still accepts: for each shape, the size `n` just under the budget is
 * found by bisection (one more answers 400 `tooMany`), then `GET /Users?filter=…` at that size
 * is timed through `scim.handle` (the time it holds the event loop), and so is the refusal just
 * over the edge.
 *
 * Run: `node --import tsx bench/filter/worst-case.bench.ts` (RUNS=7 by default)
 */
import os from 'node:os';
import { createScim, staticApiKeys, type Scim } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
// Text that folding finds dearest: precomposed and Greek letters, so NFC and case folding work.
const nonAscii = (i: number, length: number) => `Élève-Ωμέγα-${i}-`.padEnd(length, 'é');
const coTerms = (path: string, count: number) =>
  times(count, (k) => `${path} co "ø${k}"`).join(' or ');
const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };

interface Case {
  name: string;
  /** The users, each as its POST body. */
  users: () => Record<string, unknown>[];
  /** The query of size `n`. */
  query: (n: number) => string;
  low: number;
  high: number;
}

const q = (filter: string, extra = '') => `filter=${encodeURIComponent(filter)}${extra}`;

const cases: Case[] = [
  {
    name: '3 users × 5,000 roles of 40 non-ASCII chars; n `roles.value co` terms',
    users: () =>
      times(3, (u) => ({ roles: times(5_000, (i) => ({ value: nonAscii(u * 5_000 + i, 40) })) })),
    query: (n) => q(coTerms('roles.value', n)),
    low: 1,
    high: 90,
  },
  {
    name: '2,000 users, displayName of 200 non-ASCII chars; n `displayName co` terms',
    users: () => times(2_000, (i) => ({ displayName: nonAscii(i, 200) })),
    query: (n) => q(coTerms('displayName', n)),
    low: 1,
    high: 130,
  },
  {
    name: '10,000 users; n `not (userName eq …)` terms (index-only, scanned)',
    users: () => times(10_000, () => ({})),
    query: (n) => q(times(n, (k) => `not (userName eq "nobody${k}@x")`).join(' and ')),
    low: 1,
    high: 120,
  },
  {
    name: '5,000 users, displayName of 1,000 non-ASCII chars; the first n by title, sortBy=displayName',
    users: () =>
      times(5_000, (i) => ({ displayName: nonAscii(i, 1_000), title: String(i).padStart(5, '0') })),
    query: (n) => q(`title lt "${String(n).padStart(5, '0')}"`, '&sortBy=displayName'),
    low: 1,
    high: 5_000,
  },
];

async function seeded(c: Case): Promise<Scim> {
  const scim = createScim({
    store: new MemoryUserStore(),
    verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
    mailer: { async sendWelcome() {} },
    // Only to store the long roles in one POST; the list requests have no body.
    maxBodyBytes: 64 * 1024 * 1024,
  });
  let i = 0;
  for (const user of c.users()) {
    const body = JSON.stringify({ schemas: [USER], userName: `u${i++}@example.org`, ...user });
    const reply = await scim.handle({
      method: 'POST',
      path: '/Users',
      query: '',
      headers,
      body,
      baseUrl: 'http://x',
    });
    if (reply.status !== 201) throw new Error(`seeding: ${reply.status} ${String(reply.body)}`);
  }
  return scim;
}

const list = async (scim: Scim, query: string) =>
  (await scim.handle({ method: 'GET', path: '/Users', query, headers, baseUrl: 'http://x' }))
    .status;

async function edge(scim: Scim, c: Case): Promise<number> {
  let { low, high } = c;
  if ((await list(scim, c.query(high))) === 200) return high;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if ((await list(scim, c.query(mid))) === 200) low = mid;
    else high = mid;
  }
  return low;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timed(scim: Scim, query: string, runs: number) {
  const ms: number[] = [];
  let status = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    status = await list(scim, query);
    ms.push(performance.now() - t);
  }
  return { ms: median(ms), status };
}

const runs = Number(process.env.RUNS ?? 7);
console.log(
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}) · Node ${process.version} · load ${os.loadavg()[0]?.toFixed(1)}\n`,
);
console.log('| shape | n at the edge | accepted: list request ms | n + 1: refusal ms |');
console.log('|---|---:|---:|---:|');
for (const c of cases) {
  const scim = await seeded(c);
  const n = await edge(scim, c);
  const ok = await timed(scim, c.query(n), runs);
  const over = await timed(scim, c.query(n + 1), runs);
  console.log(
    `| ${c.name} | ${n} | ${ok.ms.toFixed(1)} (${ok.status}) | ${over.ms.toFixed(1)} (${over.status}) |`,
  );
}
