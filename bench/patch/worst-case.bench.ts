/**
 * Times the most expensive PATCHes: the one of the hardening report (1,000 value-filter
 * operations on a user with 15,000 roles) and the costliest ones the default budgets still
 * accept (`maxPatchWork` 1,000,000 value visits, `maxAttributeValues` 10,000), each through
 * `applyPatch` and as a whole request through `scim.handle` on the memory store. The time of one
 * request is the time it holds the event loop: everything in it is synchronous but the store.
 *
 * Run: `node --import tsx bench/patch/worst-case.bench.ts`
 * Before/after: check out the older commit beside this one (`git worktree add ../before <rev>`)
 * and run `node --import tsx bench/patch/worst-case.bench.ts ../before` to time its engine and
 * core with the same cases (budgets it does not know are ignored by it).
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Json = Record<string, unknown>;
type Apply = (resource: Json, body: unknown, options: Json) => { resource: Json };

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../..'));
const load = (file: string) => import(pathToFileURL(path.join(root, file)).href);
const { applyPatch } = (await load('src/patch/index.ts')) as { applyPatch: Apply };
const schemas = await load('src/schema/user-schema.ts');
const scimkit = await load('src/index.ts');
const { MemoryUserStore } = await load('src/stores/memory/index.ts');

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
// A checkout from before the compiled resource type takes `schemas`; a later one `resourceType`.
const compiled = await load('src/schema/user-resource-type.ts').catch(() => undefined);
const options = {
  schemas: [schemas.userSchema, schemas.enterpriseUserSchema, schemas.accountSchema],
  ...(compiled ? { resourceType: compiled.userResourceType() } : {}),
};

const roles = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ value: `r${i}`, display: `Role ${i}`, type: 'course' }));
const times = (n: number, op: (i: number) => Json) => Array.from({ length: n }, (_, i) => op(i));

interface Case {
  name: string;
  roles: number;
  operations: Json[];
}

const cases: Case[] = [
  {
    name: 'report: 1,000 × remove/replace `roles[value eq "rN"]`, 15,000 roles',
    roles: 15_000,
    operations: times(1000, (i) =>
      i % 2 === 0
        ? { op: 'remove', path: `roles[value eq "r${i * 13}"]` }
        : {
            op: 'replace',
            path: `roles[value eq "r${i * 13}"]`,
            value: { value: `r${i * 13}`, display: 'x' },
          },
    ),
  },
  {
    // Every operation tests and rewrites every value (20,000 visits): 49 fit in 1,000,000, 50 do
    // not.
    name: 'budget edge: 49 × replace `roles[value sw "r"].display` (all match), 10,000 roles',
    roles: 10_000,
    operations: times(49, (i) => ({
      op: 'replace',
      path: 'roles[value sw "r"].display',
      value: `d${i}`,
    })),
  },
  {
    // Unindexed filters that match nothing: one test per value per operation; 100 do not fit.
    name: 'budget edge: 99 × remove `roles[display co "nothing N"]` (scan), 10,000 roles',
    roles: 10_000,
    operations: times(99, (i) => ({ op: 'remove', path: `roles[display co "nothing ${i}"]` })),
  },
  {
    // A value without `value` cannot be looked up: each one is compared with every member; 100
    // do not fit.
    name: 'budget edge: 99 × remove with a value without `value` (deep compare), 10,000 roles',
    roles: 10_000,
    operations: [
      { op: 'remove', path: 'roles', value: times(99, (i) => ({ display: `nobody ${i}` })) },
    ],
  },
  {
    // Far within the work budget (about 30,000 visits); what it costs is its 600 KiB body.
    name: 'largest body: add 10,000 roles to none, then 990 × replace `roles[value eq "rN"].display`',
    roles: 0,
    operations: [
      { op: 'add', path: 'roles', value: roles(10_000) },
      ...times(990, (i) => ({
        op: 'replace',
        path: `roles[value eq "r${i * 10}"].display`,
        value: 'y',
      })),
    ],
  },
];

// Median and fastest run: on a shared machine the fastest is the least disturbed one.
function summary(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${(s[Math.floor(s.length / 2)] ?? NaN).toFixed(1)} / ${(s[0] ?? NaN).toFixed(1)}`;
}

async function timeCase(c: Case, runs: number) {
  const user = {
    schemas: [USER],
    id: 'id-1',
    userName: 'ada@example.org',
    active: true,
    ...(c.roles > 0 ? { roles: roles(c.roles) } : {}),
  };
  const body = { schemas: [PATCH_OP], Operations: c.operations };
  const text = JSON.stringify(body);
  const engine: number[] = [];
  let outcome = '';
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    try {
      applyPatch(user, body, options);
      outcome = 'applied';
    } catch (error) {
      outcome = `400 ${(error as { scimType?: string }).scimType}`;
    }
    engine.push(performance.now() - t);
  }
  const scim = scimkit.createScim({
    store: new MemoryUserStore(),
    verifier: scimkit.staticApiKeys([{ key: 'k', tenant: 't' }]),
    mailer: { async sendWelcome() {} },
    maxAttributeValues: 20_000,
  });
  const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };
  const request = (method: string, p: string, b: unknown) =>
    scim.handle({
      method,
      path: p,
      query: '',
      headers,
      body: JSON.stringify(b),
      baseUrl: 'http://x',
    });
  const http: number[] = [];
  let status = 0;
  for (let i = 0; i < runs; i++) {
    const created = await request('POST', '/Users', { ...user, userName: `u${i}@example.org` });
    const id = JSON.parse(created.body as string).id as string;
    const t = performance.now();
    const reply = await scim.handle({
      method: 'PATCH',
      path: `/Users/${id}`,
      query: '',
      headers,
      body: text,
      baseUrl: 'http://x',
    });
    http.push(performance.now() - t);
    status = reply.status;
  }
  return { bytes: text.length, outcome, engine: summary(engine), http: summary(http), status };
}

const runs = Number(process.env.RUNS ?? 7);
console.log(
  `${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}) · Node ${process.version} · ${root}\n`,
);
console.log(
  '| case | body | applyPatch ms (median / fastest) | PATCH request ms (median / fastest) | answer |',
);
console.log('|---|---:|---:|---:|---|');
for (const c of cases) {
  const r = await timeCase(c, runs);
  console.log(
    `| ${c.name} | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.engine} | ${r.http} | ${r.status} (engine: ${r.outcome}) |`,
  );
}
