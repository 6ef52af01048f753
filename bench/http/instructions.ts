// The HTTP benchmark's noise-free companion: the user-space instructions each server executes
// per request, counted by valgrind's callgrind while autocannon sends a fixed number of
// requests over loopback. Instruction counts do not depend on what else the shared machine is
// doing, so a change of a few percent shows; kernel time (the same syscalls for both servers)
// is not counted. Needs `valgrind` on the PATH; each server runs about 50 times slower under it.
//
//   node --import tsx bench/http/instructions.ts [--ops get,patch] [--requests 3000]
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { callgrindCount, spawnUnderCallgrind } from '../callgrind-count.js';
import { OPERATIONS, newUserBody, type ServerName, type Target } from './operations.js';

const { values: args } = parseArgs({
  options: {
    ops: { type: 'string' },
    requests: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '2000' },
    users: { type: 'string', default: '1000' },
  },
});
const requests = Number(args.requests);
const token = 'bench-token-0123456789';
const headers = {
  authorization: `Bearer ${token}`,
  'content-type': 'application/scim+json',
  accept: 'application/scim+json',
};
const operations = OPERATIONS.filter(
  (op) => !args.ops || args.ops.split(',').some((o) => op.name.includes(o.trim())),
);

interface Counted {
  readonly child: ChildProcess;
  readonly url: string;
  readonly folder: string;
}

function start(name: ServerName): Promise<Counted> {
  const folder = mkdtempSync(join(tmpdir(), `scimkit-instructions-${name}-`));
  const server = new URL('./server-process.ts', import.meta.url).pathname;
  const child = spawnUnderCallgrind(folder, server, [name], {
    env: { ...process.env, BENCH_TOKEN: token },
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, url: (m as { url: string }).url, folder }));
    child.once('exit', (code) =>
      reject(new Error(`${name} exited with ${code} before it started`)),
    );
  });
}

async function preload(name: ServerName, url: string): Promise<Target> {
  const ids: string[] = [];
  const userNames: string[] = [];
  for (let i = 0; i < Number(args.users); i++) {
    const userName = `pre-${String(i).padStart(6, '0')}@bench.example.org`;
    const response = await fetch(`${url}/Users`, {
      method: 'POST',
      headers,
      body: newUserBody(userName),
    });
    if (response.status !== 201) throw new Error(`${name}: preload answered ${response.status}`);
    ids.push(((await response.json()) as { id: string }).id);
    userNames.push(userName);
  }
  return { name, url, ids, userNames };
}

async function load(target: Target, op: (typeof OPERATIONS)[number], amount: number) {
  const result = await autocannon({
    url: target.url,
    connections: 10,
    amount,
    requests: op.requests(target, headers),
  });
  if (result.non2xx > 0) throw new Error(`${target.name}: ${result.non2xx} answers not 2xx`);
}

function dump(counted: Counted): number {
  return callgrindCount(counted.child.pid as number, counted.folder);
}

async function measure(name: ServerName): Promise<Map<string, number>> {
  const perRequest = new Map<string, number>();
  for (const op of operations) {
    // A server per operation, so that one operation's garbage does not land on the next.
    const counted = await start(name);
    try {
      const target = await preload(name, counted.url);
      await load(target, op, Number(args.warmup));
      dump(counted);
      await load(target, op, requests);
      perRequest.set(op.name, dump(counted) / requests);
      console.log(
        `${name.padEnd(9)} ${op.name.padEnd(18)} ${Math.round(perRequest.get(op.name) ?? 0)} instructions/request`,
      );
    } finally {
      counted.child.kill();
      await new Promise((resolve) => counted.child.once('exit', resolve));
      rmSync(counted.folder, { recursive: true, force: true });
    }
  }
  return perRequest;
}

// The two servers run side by side: each takes one of the two cores.
const [baseline, scimkit] = await Promise.all([measure('baseline'), measure('scimkit')]);
console.log(
  `\n| operation | hand-written instructions/request | scimkit instructions/request | ratio (hand-written ÷ scimkit) |\n|---|---:|---:|---:|`,
);
for (const op of operations) {
  const b = baseline.get(op.name) ?? NaN;
  const s = scimkit.get(op.name) ?? NaN;
  console.log(
    `| ${op.name} | ${Math.round(b)} | ${Math.round(s)} | ${((b / s) * 100).toFixed(1)}%${b / s < 0.9 ? ' ✗' : ''} |`,
  );
}
