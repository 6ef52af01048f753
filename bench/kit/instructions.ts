// The kit's servers counted rather than timed: the user-space instructions each server executes
// per request, under valgrind's callgrind, for scimkit's kit servers (bench/kit/servers/*.mjs on
// a build of each git ref) and the kit's hello-world floors (baselines/*.mjs). This process
// seeds a server and warms it up on every operation, then per operation sends windows of N
// keep-alive requests of the kit's shapes (wrk/scim.lua) over 8 connections, each window ended
// by a callgrind dump; instructions over requests is the cost of one request, start-up and
// warm-up left out. A window of 100 requests catches a major collection or not, so windows of a
// few hundred (and several) are needed for a figure within a few percent. V8 runs with
// --predictable-gc-schedule, so collections follow allocation, not the clock of a server slowed
// 50 times. Instruction counts do not move with the machine's load. Kernel time (socket reads
// and writes, the same syscalls for every server) is not counted: these ratios are the
// user-space part of the kit's throughput ratios, which kernel time pulls towards 100%.
//
//   node --import tsx bench/kit/instructions.ts [--refs main,WORKTREE] [--servers hono,fastify]
//     [--compare hono] (the servers measured on every ref; the others on the last ref only)
//     [--floors hono,fastify,express,raw-node,raw-store] [--ops get,filter,put,patch,create]
//     [--requests 250] [--windows 4] [--warmup 400] [--users 100]
import { build } from 'esbuild';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { entryPoints } from '../../entry-points.js';
import { callgrindCount, spawnUnderCallgrind } from '../callgrind-count.js';
import { ROOT, prepareKit } from './kit.js';

const { values: args } = parseArgs({
  options: {
    refs: { type: 'string', default: 'WORKTREE' },
    servers: { type: 'string', default: 'hono,fastify,express,fetch,node' },
    compare: { type: 'string' },
    floors: { type: 'string', default: 'hono,fastify,express,raw-node,raw-store' },
    ops: { type: 'string', default: 'get,filter,put,patch,create' },
    requests: { type: 'string', default: '250' },
    windows: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '400' },
    users: { type: 'string', default: '100' },
  },
});
// The floors each adapter is held to, the first its target's: fetch runs on the same
// @hono/node-server bridge as Hono; the node adapter is held to raw-store (a minimal SCIM
// server with real payloads, issue 16's ceiling) and shown against bare node:http too.
const FLOORS_OF: Record<string, readonly string[]> = {
  fetch: ['hono'],
  node: ['raw-store', 'raw-node'],
};
const list = (s: string) => s.split(',').filter((x) => x !== '');
const N = Number(args.requests);
const PREFIX = '/api/v1/scim/v2';
const TOKEN = 'bench-token';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const work = mkdtempSync(join(tmpdir(), 'scimkit-kit-instructions-'));
process.once('exit', () => rmSync(work, { recursive: true, force: true }));

/**
 * A folder that resolves `scimkit` to a build of `ref` (WORKTREE: the files as they are): the
 * package.json (its exports map), `dist` bundled by esbuild as tsup splits it, the kit servers,
 * and the repository's node_modules.
 */
async function packageOf(ref: string, index: number): Promise<string> {
  const dir = join(work, `ref-${index}`);
  mkdirSync(dir, { recursive: true });
  if (ref === 'WORKTREE') cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  else execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${ref}" src | tar -x -C "${dir}"`]);
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  cpSync(join(ROOT, 'bench/kit/servers'), join(dir, 'servers'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  await build({
    entryPoints: Object.fromEntries(entryPoints.map((e) => [e.out, join(dir, e.src)])),
    outdir: join(dir, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return dir;
}

interface Running {
  readonly child: ChildProcess;
  readonly folder: string;
  readonly port: number;
}

/** Starts `node <file>` under callgrind on a free port and waits for its "listening" line. */
function start(file: string, name: string): Promise<Running> {
  const folder = mkdtempSync(join(work, 'cg-'));
  const port = 4100 + Math.floor(Math.random() * 800);
  // No HOST: vgdb names its pipes after $HOST, and callgrind_control looks them up by the
  // name its own environment gives; the servers listen on 127.0.0.1 without it.
  const env = { ...process.env, HOST: undefined, PORT: String(port), PREFIX, SCIM_TOKEN: TOKEN };
  // Collections by the allocation count, not by the clock (idle time, memory reducer). The
  // `--import tsx` spawnUnderCallgrind adds only hooks module loading, before any count.
  const child = spawnUnderCallgrind(folder, file, [], { env, stdio: ['ignore', 'pipe', 'pipe'] }, [
    '--predictable-gc-schedule',
  ]);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) resolve({ child, folder, port });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${err}`)));
  });
}

const CONNECTIONS = 8;
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** One request on the kept-alive connection; resolves with the status and the parsed body. */
function send(port: number, method: string, path: string, body?: string) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${TOKEN}`,
    accept: 'application/scim+json',
  };
  if (body !== undefined) {
    headers['content-type'] = 'application/scim+json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise<{ status: number; json: { id?: string } }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: text === '' ? {} : JSON.parse(text) }),
      );
    });
    req.once('error', reject);
    req.end(body);
  });
}

interface Row {
  readonly id: string;
  readonly userName: string;
}

const userBody = (userName: string, given: string) =>
  `{"schemas":["${USER}"],"userName":"${userName}","active":true,"name":{"givenName":"${given}","familyName":"Family"}}`;

/** The kit's request of `op` number `i` (scim.lua's shapes), as method, path and body. */
function kitRequest(op: string, rows: readonly Row[], i: number): [string, string, string?] {
  const row = rows[i % rows.length] as Row;
  switch (op) {
    case 'get':
      return ['GET', `${PREFIX}/Users/${row.id}`];
    case 'filter':
      return [
        'GET',
        `${PREFIX}/Users?filter=${encodeURIComponent(`userName eq "${row.userName}"`)}`,
      ];
    case 'put':
      return ['PUT', `${PREFIX}/Users/${row.id}`, userBody(row.userName, `Put${i}`)];
    case 'patch': {
      const value = Math.floor(i / rows.length) % 2 === 0 ? 'false' : 'true';
      const ops = `[{"op":"replace","path":"active","value":${value}}]`;
      return ['PATCH', `${PREFIX}/Users/${row.id}`, `{"schemas":["${PATCH}"],"Operations":${ops}}`];
    }
    case 'create':
      return ['POST', `${PREFIX}/Users`, userBody(`c-${i}-${process.pid}@example.com`, `G${i}`)];
    default:
      throw new Error(`unknown operation ${op}`);
  }
}

let sent = 0;
/**
 * Sends `count` requests of `op` over CONNECTIONS kept-alive connections, so that the server is
 * never idle waiting for this process: an idle V8 schedules collections by the clock.
 */
async function load(running: Running, op: string, rows: readonly Row[], count: number) {
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      const [method, path, body] = kitRequest(op, rows, sent++);
      const { status } = await send(running.port, method, path, body);
      if (status >= 300) throw new Error(`${op}: HTTP ${status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

/** Instructions per request of every operation on one server, started once. */
async function measure(file: string, name: string): Promise<Map<string, number>> {
  const running = await start(file, name);
  const counts = new Map<string, number>();
  try {
    const rows: Row[] = [];
    for (let i = 0; i < Number(args.users); i++) {
      const userName = `seed-${i}@example.com`;
      const { status, json } = await send(
        running.port,
        'POST',
        `${PREFIX}/Users`,
        userBody(userName, `Given${i}`),
      );
      if (status !== 201) throw new Error(`${name}: seeding answered ${status}`);
      rows.push({ id: json.id ?? '', userName });
    }
    const dump = () => callgrindCount(running.child.pid as number, running.folder);
    // Every operation warms up before any is counted: the code they share (and the optimising
    // compiler's work on it) would otherwise land on the first operation counted.
    for (const op of list(args.ops)) await load(running, op, rows, Number(args.warmup));
    for (const op of list(args.ops)) {
      await load(running, op, rows, Number(args.warmup) / 5);
      dump();
      const windows: number[] = [];
      for (let w = 0; w < Number(args.windows); w++) {
        await load(running, op, rows, N);
        windows.push(dump() / N);
      }
      // The mean of all windows: collections are part of what a request costs, and a window
      // catches one or none of them (the windows show that spread).
      counts.set(op, windows.reduce((a, b) => a + b, 0) / windows.length);
      const k = (x: number | undefined) => `${Math.round((x ?? NaN) / 1000)}k`;
      console.error(
        `  ${name} ${op}: ${k(counts.get(op))} instructions/request (windows ${windows.map(k).join(' ')})`,
      );
    }
  } finally {
    running.child.kill('SIGINT');
    await new Promise((resolve) => running.child.once('exit', resolve));
  }
  return counts;
}

const refs = list(args.refs);
const packages = await Promise.all(refs.map((ref, i) => packageOf(ref, i)));
const kit = list(args.floors).length > 0 ? prepareKit() : '';
const jobs: { name: string; floors?: readonly string[]; file: string }[] = [
  ...list(args.floors).map((f) => ({ name: `floor ${f}`, file: join(kit, `baselines/${f}.mjs`) })),
  ...list(args.servers).flatMap((s) =>
    refs
      .map((ref, i) => ({
        name: `scimkit-${s} @${ref}`,
        floors: (FLOORS_OF[s] ?? [s]).map((f) => `floor ${f}`),
        file: join(packages[i] as string, `servers/${s}.mjs`),
      }))
      // A server left out of --compare runs on the last ref only.
      .filter(
        (_, i) =>
          i === refs.length - 1 || args.compare === undefined || list(args.compare).includes(s),
      ),
  ),
];
const results = new Map<string, Map<string, number>>();
// Two at a time: one per core.
for (let j = 0; j < jobs.length; j += 2) {
  const pair = jobs.slice(j, j + 2);
  const counted = await Promise.all(pair.map((job) => measure(job.file, job.name)));
  pair.forEach((job, k) => results.set(job.name, counted[k] as Map<string, number>));
}
agent.destroy();
const ops = list(args.ops);
const lines = [
  `| server | ${ops.join(' | ')} |`,
  `|---|${ops.map(() => '---:').join('|')}|`,
  ...jobs.map((job) => {
    const own = results.get(job.name);
    // The floors counted in this run, each with its name when there are several.
    const floors = (job.floors ?? []).filter((f) => results.has(f));
    const cells = ops.map((op) => {
      const count = own?.get(op) ?? NaN;
      // Floor ÷ adapter: the share of the floor's speed the adapter reaches, user space only.
      const ratios = floors.map((f) => {
        const share = `${Math.round(((results.get(f)?.get(op) ?? NaN) / count) * 100)}%`;
        return floors.length > 1 ? `${share} of ${f.slice('floor '.length)}` : share;
      });
      return ratios.length === 0
        ? `${Math.round(count)}`
        : `${Math.round(count)} (${ratios.join(', ')})`;
    });
    return `| ${job.name} | ${cells.join(' | ')} |`;
  }),
];
console.log(
  `instructions per request (user space; kernel not counted), ${N} requests; (x%) = floor ÷ adapter\n`,
);
console.log(lines.join('\n'));
writeFileSync(join(tmpdir(), 'scimkit-kit-instructions-last.md'), `${lines.join('\n')}\n`);
