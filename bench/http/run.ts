// The HTTP benchmark: scimkit's example server next to a hand-written node:http server, both in
// child processes on 127.0.0.1, driven by autocannon from this process, interleaved in rounds.
//
//   npm run bench:http                       # 3 s per operation per server, 5 rounds
//   node --import tsx bench/http/run.ts --seconds 2 --rounds 1 --ops get --no-write
//   node --import tsx bench/http/run.ts --servers scimkit --profile /tmp/prof --no-write
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import {
  OPERATIONS,
  SERVER_NAMES,
  newUserBody,
  type ServerName,
  type Target,
} from './operations.js';
import { summary, writeResults, type Row } from './results.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '1' },
    users: { type: 'string', default: '1000' },
    ops: { type: 'string' },
    // Add scimkit-nodecrypto for the diagnostic variant described in RESULTS.md.
    servers: { type: 'string', default: 'baseline,scimkit' },
    profile: { type: 'string' },
    // Extra node flags for both servers, e.g. --node-flags=--single-threaded (see RESULTS.md).
    'node-flags': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const warmup = Number(args.warmup);
const preloadCount = Number(args.users);
const serverNames = (args.servers ?? '')
  .split(',')
  .filter((s): s is ServerName => (SERVER_NAMES as readonly string[]).includes(s));
const operations = OPERATIONS.filter(
  (op) => !args.ops || args.ops.split(',').some((o) => op.name.includes(o.trim())),
);
const token = 'bench-token-0123456789';
const headers = {
  authorization: `Bearer ${token}`,
  'content-type': 'application/scim+json',
  accept: 'application/scim+json',
};

interface Child {
  readonly process: ChildProcess;
  readonly url: string;
}

function startChild(name: ServerName): Promise<Child> {
  const execArgv = ['--import', 'tsx', ...(args['node-flags']?.split(' ').filter(Boolean) ?? [])];
  // One folder per server, so the profiles of the two sides can be compared.
  if (args.profile) execArgv.push('--cpu-prof', `--cpu-prof-dir=${args.profile}/${name}`);
  const child = fork(new URL('./server-process.ts', import.meta.url), [name], {
    execArgv,
    env: { ...process.env, BENCH_TOKEN: token },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) =>
      resolve({ process: child, url: (message as { url: string }).url }),
    );
    child.once('exit', (code) =>
      reject(new Error(`${name} server exited with code ${code} before it started`)),
    );
  });
}

async function preload(name: ServerName, url: string): Promise<Target> {
  const ids: string[] = [];
  const userNames: string[] = [];
  for (let start = 0; start < preloadCount; start += connections) {
    const batch = Array.from(
      { length: Math.min(connections, preloadCount - start) },
      async (_, i) => {
        const userName = `pre-${String(start + i).padStart(6, '0')}@bench.example.org`;
        const response = await fetch(`${url}/Users`, {
          method: 'POST',
          headers,
          body: newUserBody(userName),
        });
        if (response.status !== 201)
          throw new Error(`${name}: preload answered ${response.status}: ${await response.text()}`);
        return { id: ((await response.json()) as { id: string }).id, userName };
      },
    );
    for (const user of await Promise.all(batch)) {
      ids.push(user.id);
      userNames.push(user.userName);
    }
  }
  return { name, url, ids, userNames };
}

interface CpuTime {
  readonly total: number;
  readonly system: number;
}

function cpuMicros(name: ServerName): Promise<CpuTime> {
  const child = children.get(name)?.process;
  if (!child) return Promise.reject(new Error(`no ${name} server`));
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      const { cpuMicros: micros, systemMicros } = message as {
        cpuMicros?: number;
        systemMicros?: number;
      };
      if (micros === undefined) return;
      child.off('message', onMessage);
      resolve({ total: micros, system: systemMicros ?? 0 });
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

/** Requests per second and the server's CPU µs per request of one timed run. */
interface Sample {
  readonly rps: number;
  readonly cpu: number;
  /** The kernel's share of `cpu` (socket reads and writes, mostly). */
  readonly system: number;
}

async function measure(
  target: Target,
  op: (typeof OPERATIONS)[number],
  duration: number,
): Promise<Sample> {
  const cpuBefore = await cpuMicros(target.name);
  const result = await autocannon({
    url: target.url,
    connections,
    duration,
    timeout: 10,
    requests: op.requests(target, headers),
  });
  const cpuAfter = await cpuMicros(target.name);
  const cpu = cpuAfter.total - cpuBefore.total;
  const system = cpuAfter.system - cpuBefore.system;
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, s]) => `${code}×${s.count}`)
      .join(' ');
    console.warn(
      `  ! ${target.name} ${op.name}: ${failures} failed requests (${codes}, errors ${result.errors})`,
    );
  }
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    cpu: cpu / Math.max(1, ok),
    system: system / Math.max(1, ok),
  };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

const children = new Map<ServerName, Child>();
try {
  const targets: Target[] = [];
  for (const name of serverNames) {
    const child = await startChild(name);
    children.set(name, child);
    targets.push(await preload(name, child.url));
  }
  console.log(
    `${cpus().length} CPUs, Node ${process.version}; ${preloadCount} users preloaded; ${connections} connections, ${seconds} s per run, ${rounds} rounds`,
  );
  if (warmup > 0)
    for (const op of operations) for (const t of targets) await measure(t, op, warmup);
  const samples = new Map<string, Sample[]>();
  for (let round = 1; round <= rounds; round++) {
    // Alternate which server goes first, so neither always runs on a warmer or cooler machine.
    const order = round % 2 === 1 ? targets : [...targets].reverse();
    for (const op of operations) {
      for (const target of order) {
        const sample = await measure(target, op, seconds);
        const key = `${op.name}\u0000${target.name}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        console.log(
          `round ${round}  ${op.name.padEnd(18)} ${target.name.padEnd(9)} ${sample.rps.toFixed(0).padStart(7)} req/s ${sample.cpu.toFixed(0).padStart(6)} µs CPU/req (${sample.system.toFixed(0)} system)`,
        );
      }
    }
  }
  const pick = (name: string, field: keyof Sample) =>
    Object.fromEntries(
      serverNames.map((server) => [
        server,
        (samples.get(`${name}\u0000${server}`) ?? []).map((sample) => sample[field]),
      ]),
    );
  const rows: Row[] = operations.map((op) => ({
    operation: op.name,
    rps: pick(op.name, 'rps'),
    cpu: pick(op.name, 'cpu'),
  }));
  console.log(`\n${summary(rows, median)}`);
  if (!args['no-write']) {
    const command = ['node --import tsx bench/http/run.ts', ...process.argv.slice(2)].join(' ');
    const settings = { seconds, rounds, connections, users: preloadCount, command };
    const file = await writeResults(rows, settings, median);
    console.log(`\nwrote ${file}`);
  }
} finally {
  for (const child of children.values()) child.process.send('stop');
}
