/**
 * Times the costliest PATCH each adversarial shape can send that the default budgets still
 * accept (`maxPatchWork`, `maxAttributeValues` 10,000, 1 MiB bodies, 4,096-character filters):
 * for each shape, the size `n` just under the budget is found by bisection (one more answers 400
 * `invalidValue`), then that PATCH is timed through `applyPatch` and as a whole request through
 * `scim.handle` on the memory store. The time of one request is the time it holds the event
 * loop: everything in it is synchronous but the store. Also timed: the cost of the refusal just
 * over the edge, which must stay small (the budget stops the work where it runs out).
 *
 * Run: `node --import tsx bench/patch/worst-case.bench.ts` (RUNS=7 by default)
 */
import os from 'node:os';
import { createScim, staticApiKeys } from '../../src/index.js';
import { applyPatch } from '../../src/patch/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

type Json = Record<string, unknown>;

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const options = { resourceType: userResourceType() };
const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
// Text that folding finds dearest: precomposed and Greek letters, so NFC and case folding work.
const nonAscii = (i: number, length: number) => `Élève-Ωμέγα-${i}-`.padEnd(length, 'é');
// As many `co` terms as fit in a 4,096-character filter.
const coTerms = (path: string, count: number) =>
  times(count, (k) => `${path} co "ø${k}"`).join(' or ');

interface Case {
  name: string;
  /** The stored roles. */
  roles: (n: number) => Json[];
  /** The operations of size `n`. */
  operations: (n: number) => Json[];
  /** Bounds of the bisection on `n`: `low` is accepted. */
  low: number;
  high: number;
}

const cases: Case[] = [
  {
    name: 'remove `roles[value co "…" or …]` (150 terms) over n roles of 48 non-ASCII chars',
    roles: (n) => times(n, (i) => ({ value: nonAscii(i, 48) })),
    operations: () => [{ op: 'remove', path: `roles[${coTerms('value', 150)}]` }],
    low: 1,
    high: 10_000,
  },
  {
    name: 'n × remove `roles[display co "nothing N"]` (scan), 10,000 short ASCII roles',
    roles: () => times(10_000, (i) => ({ value: `r${i}`, display: `Role ${i}` })),
    operations: (n) =>
      times(n, (i) => ({ op: 'remove', path: `roles[display co "nothing ${i}"]` })),
    low: 0,
    high: 1000,
  },
  {
    name: 'remove `roles[display eq "…" or …]` (180 terms on an absent sub-attribute) over n roles',
    roles: (n) => times(n, (i) => ({ value: `r${i}` })),
    operations: () => [
      { op: 'remove', path: `roles[${times(180, (k) => `display eq "z${k}"`).join(' or ')}]` },
    ],
    low: 1,
    high: 10_000,
  },
  {
    name: 'n × replace `roles[value sw "r"].display` (every value rewritten), 10,000 roles',
    roles: () => times(10_000, (i) => ({ value: `r${i}`, display: `Role ${i}` })),
    operations: (n) =>
      times(n, (i) => ({ op: 'replace', path: 'roles[value sw "r"].display', value: `d${i}` })),
    low: 0,
    high: 1000,
  },
  {
    name: 'remove with n values without `value` (deep compare each with every role), 10,000 roles',
    roles: () => times(10_000, (i) => ({ value: `r${i}`, display: `Role ${i}` })),
    operations: (n) => [
      { op: 'remove', path: 'roles', value: times(n, (i) => ({ display: `nobody ${i}` })) },
    ],
    low: 0,
    high: 1000,
  },
  {
    name: 'remove `roles[value eq "x"]` (index of folded keys) over 10,000 roles of n non-ASCII chars',
    roles: (n) => times(10_000, (i) => nonAscii(i, n)).map((value) => ({ value })),
    operations: () => [{ op: 'remove', path: 'roles[value eq "x"]' }],
    low: 16,
    high: 5_000,
  },
];

function userOf(roles: Json[]): Json {
  return { schemas: [USER], id: 'id-1', userName: 'ada@example.org', active: true, roles };
}

function accepted(c: Case, n: number): boolean {
  try {
    applyPatch(userOf(c.roles(n)), { schemas: [PATCH_OP], Operations: c.operations(n) }, options);
    return true;
  } catch {
    return false;
  }
}

// The largest n the default budget accepts (the shape grows with n).
function edge(c: Case): number {
  let { low, high } = c;
  if (accepted(c, high)) return high;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (accepted(c, mid)) low = mid;
    else high = mid;
  }
  return low;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timeAt(c: Case, n: number, runs: number) {
  const user = userOf(c.roles(n));
  const body = { schemas: [PATCH_OP], Operations: c.operations(n) };
  const text = JSON.stringify(body);
  const engine: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    try {
      applyPatch(user, body, options);
    } catch {
      // Timed all the same: this is what a refusal costs.
    }
    engine.push(performance.now() - t);
  }
  const scim = createScim({
    store: new MemoryUserStore(),
    verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
    mailer: { async sendWelcome() {} },
    // Only to store the long roles in one POST; every PATCH body here is small.
    maxBodyBytes: 64 * 1024 * 1024,
  });
  const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };
  const call = (method: string, path: string, b: string) =>
    scim.handle({ method, path, query: '', headers, body: b, baseUrl: 'http://x' });
  const http: number[] = [];
  let status = 0;
  for (let i = 0; i < runs; i++) {
    const created = await call('POST', '/Users', JSON.stringify({ ...user, userName: `u${i}@x` }));
    const id = JSON.parse(created.body as string).id as string;
    const t = performance.now();
    status = (await call('PATCH', `/Users/${id}`, text)).status;
    http.push(performance.now() - t);
  }
  return { bytes: text.length, engine: median(engine), http: median(http), status };
}

// The PATCH of the report this budget answers: 99 operations of about 200 `co` terms each on a
// user with 10,000 non-ASCII roles (a 433 KB body), which counting visits let through.
const report: Case = {
  name: 'report: 99 × remove `roles[value co "…" or …]` (200 terms), 10,000 non-ASCII roles',
  roles: () => times(10_000, (i) => ({ value: nonAscii(i, 40) })),
  operations: () =>
    times(99, (op) => ({
      op: 'remove',
      path: `roles[${times(200, (k) => `value co "${op}ø${k}"`).join(' or ')}]`,
    })),
  low: 0,
  high: 0,
};

const runs = Number(process.env.RUNS ?? 7);
console.log(
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}) · Node ${process.version} · load ${os.loadavg()[0]?.toFixed(1)}\n`,
);
console.log(
  '| shape | n at the edge | body | accepted: applyPatch ms | accepted: PATCH request ms | n + 1: refusal ms (request) |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const c of cases) {
  const n = edge(c);
  const ok = await timeAt(c, n, runs);
  const over = await timeAt(c, n + 1, runs);
  console.log(
    `| ${c.name} | ${n} | ${(ok.bytes / 1024).toFixed(0)} KiB | ${ok.engine.toFixed(1)} | ${ok.http.toFixed(1)} (${ok.status}) | ${over.http.toFixed(1)} (${over.status}) |`,
  );
}
const refused = await timeAt(report, 0, runs);
console.log(
  `\n${report.name}: ${(refused.bytes / 1024).toFixed(0)} KiB, answered ${refused.status} in ${refused.http.toFixed(1)} ms (applyPatch ${refused.engine.toFixed(1)} ms)`,
);
