// Where a request's CPU goes on PostgreSQL: for `raw-pg` (the shared kit's hand-written
// baseline) and the scimkit kit server on the same database, the CPU time the Node process and
// the database backends serving it spend per request of each kit scenario, sent one at a time
// over keep-alive. On the kit's 2-core machine wrk, Node and PostgreSQL share the cores, so when
// the cores are the limit a server's throughput is bounded by 2 cores ÷ (its Node CPU + its
// backends' CPU + the client's) per request: the ratio of those sums bounds the kit's ratio.
// The backends are told apart from every other connection by their `application_name`, so
// other work on the database does not count; /proc gives CPU in clock ticks (10 ms), hence the
// thousands of requests per scenario. Run `npm run build` first (the kit server imports the
// built package); the kit's `setup.sh` must have installed the baselines' `pg`.
//
//   node --import tsx bench/postgres/cpu-split.ts [--requests 3000] [--seed 2000] [--rounds 2]
//     [--servers raw-pg,scimkit-node-pg] [--scenarios filter,get,patch,put,create]
//     [--concurrency 1]
//
// With `--concurrency 16` the requests go 16 at a time, as the kit's wrk sends them, so a
// server that has concurrent requests share a statement is measured sharing them: the CPU a
// request takes under the kit's load, whose sum bounds the kit's ratio when the cores are the
// limit. The latency column is then the wall time per request of the whole run.
//
// `--servers` takes the kit's names, scimkit's PostgreSQL kit servers (scimkit-node-pg,
// scimkit-node-pg-log, scimkit-node-pg-no-log) and `name=path` for a kit server of another
// checkout (built), as `npm run bench:kit` does; each is compared with the first.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { kitServers } from './kit-servers.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '3000' },
    seed: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '2' },
    servers: { type: 'string', default: 'raw-pg,scimkit-node-pg' },
    scenarios: { type: 'string', default: 'filter,get,patch,put,create' },
    concurrency: { type: 'string', default: '1' },
    database: {
      type: 'string',
      default: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const N = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
if (!Number.isInteger(CONCURRENCY) || CONCURRENCY < 1) throw new Error('--concurrency: 1 or more');
const scenarios = args.scenarios.split(',').filter((s) => s !== '');
const PREFIX = '/api/v1/scim/v2';
const TOKEN = 'bench-token';
const { names, startServer } = await kitServers(args.servers);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function send(port: number, method: string, path: string, body?: unknown) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: PREFIX + path,
        agent,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(text ? { 'content-type': 'application/scim+json' } : {}),
        },
      },
      (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (out += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: out }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

// utime + stime of a process, in clock ticks; 0 for one that is gone.
function ticks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

const admin = new pg.Pool({ connectionString: args.database, max: 1 });
async function backends(app: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
    [app],
  );
  return rows.map((r) => r.pid);
}

const USER = (name: string, given: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: name,
  active: true,
  name: { givenName: given, familyName: 'Family' },
});
const PATCH = (active: boolean) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op: 'replace', path: 'active', value: active }],
});

interface Seeded {
  readonly id: string;
  readonly userName: string;
}
type Scenario = (port: number, i: number, users: readonly Seeded[], tag: string) => Promise<number>;
const SCENARIOS: Record<string, Scenario> = {
  filter: async (port, i, users) => {
    const u = users[i % users.length] as Seeded;
    const f = encodeURIComponent(`userName eq "${u.userName}"`);
    return (await send(port, 'GET', `/Users?filter=${f}`)).status;
  },
  get: async (port, i, users) =>
    (await send(port, 'GET', `/Users/${(users[i % users.length] as Seeded).id}`)).status,
  patch: async (port, i, users) =>
    (
      await send(
        port,
        'PATCH',
        `/Users/${(users[i % users.length] as Seeded).id}`,
        // Each pass over the users flips \`active\`, so that every PATCH writes.
        PATCH(Math.floor(i / users.length) % 2 === 1),
      )
    ).status,
  put: async (port, i, users) => {
    const u = users[i % users.length] as Seeded;
    return (await send(port, 'PUT', `/Users/${u.id}`, USER(u.userName, `Put${i}`))).status;
  },
  create: async (port, i, _users, tag) =>
    (await send(port, 'POST', '/Users', USER(`c-${tag}-${i}@example.com`, `Given${i}`))).status,
};

for (const s of scenarios)
  if (!(s in SCENARIOS))
    throw new Error(`--scenarios: ${s} (known: ${Object.keys(SCENARIOS).join(', ')})`);

async function measure(name: string, port: number, round: number) {
  const app = `cpu-split-${name}`;
  const server = await startServer(name, {
    port,
    cpu: '',
    env: { DATABASE_URL: args.database, PGAPPNAME: app },
  });
  const users: Seeded[] = [];
  for (let i = 0; i < Number(args.seed); i++) {
    const userName = `s-${round}-${i}@example.com`;
    const res = await send(port, 'POST', '/Users', USER(userName, `Given${i}`));
    if (res.status !== 201) throw new Error(`${name}: seed answered ${res.status} ${res.text}`);
    users.push({ id: (JSON.parse(res.text) as { id: string }).id, userName });
  }
  // Let background work of the seed (welcome emails) settle before counting.
  await new Promise((r) => setTimeout(r, 2000));
  const result: Record<string, { node: number; db: number; wall: number }> = {};
  for (const scenario of scenarios) {
    const run = SCENARIOS[scenario] as Scenario;
    // Backends come and go with the pool's idle timeout: each one's CPU is read every 200 ms,
    // and the last reading of each counts (a new one from zero).
    const start = new Map<number, number>();
    for (const pid of await backends(app)) start.set(pid, ticks(pid));
    const last = new Map(start);
    let polling = true;
    const poll = (async () => {
      while (polling) {
        for (const pid of await backends(app))
          last.set(pid, Math.max(last.get(pid) ?? 0, ticks(pid)));
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const nodeBefore = ticks(server.pid);
    const began = performance.now();
    // Each of CONCURRENCY senders takes the next request when its last is answered.
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < N; i = next++) {
        const status = await run(port, i, users, `${round}-${scenario}`);
        if (status >= 300) throw new Error(`${name} ${scenario}: answered ${status}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    const wall = performance.now() - began;
    // The welcome email a create queues is sent after the answer: give it time to be counted.
    if (scenario === 'create') await new Promise((r) => setTimeout(r, 3000));
    const nodeAfter = ticks(server.pid);
    polling = false;
    await poll;
    let db = 0;
    for (const [pid, t] of last) db += t - (start.get(pid) ?? 0);
    // A tick is 10 ms: µs per request.
    result[scenario] = {
      node: ((nodeAfter - nodeBefore) * 10_000) / N,
      db: (db * 10_000) / N,
      wall: (wall * 1000) / N,
    };
  }
  await server.stop();
  return result;
}

const all: Record<string, Record<string, { node: number; db: number; wall: number }>[]> = {};
for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    (all[name] ??= []).push(await measure(name, 3900 + round, round));
    console.error(`round ${round} ${name} done`);
  }
}
await admin.end();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const pick = (name: string, s: string, k: 'node' | 'db' | 'wall') =>
  median((all[name] ?? []).map((r) => r[s]?.[k] ?? NaN));
// Per server and scenario: Node µs + backends µs of CPU per request, the CPU bound of its kit
// ratio to the first server ((first's sum) ÷ (its sum)), and its latency one at a time (its
// wall time per request, with --concurrency above 1).
const [first = ''] = names;
console.log(
  `| scenario | server | Node µs | backends µs | CPU bound ÷ ${first} | ${CONCURRENCY === 1 ? 'latency c=1' : `wall per request, c=${CONCURRENCY},`} µs |`,
);
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const s of scenarios) {
  const base = pick(first, s, 'node') + pick(first, s, 'db');
  for (const name of names) {
    const node = pick(name, s, 'node');
    const db = pick(name, s, 'db');
    const bound = name === first ? '-' : `${((base / (node + db)) * 100).toFixed(0)}%`;
    console.log(
      `| ${s} | ${name} | ${node.toFixed(0)} | ${db.toFixed(0)} | ${bound} | ${pick(name, s, 'wall').toFixed(0)} |`,
    );
  }
}
