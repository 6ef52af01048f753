// What the example server's console costs per SCIM request, in process: `scim.handle()` with
// no request listener, with a listener that keeps each event as it is (what a log that copies
// nothing costs), and with the console's `RequestLog`, which copies a bounded view of each
// request when it is recorded. CPU µs per request, medians over rounds.
//
// With --memory it measures instead the heap each listener keeps after 100 PATCHes that each
// set a user's title to a new 256 KiB text: bodies, and users before and after, that a log of
// whole events keeps, and the console's log cuts to its limits.
//
//   node --import tsx bench/http/console-cost.ts [--iterations 20000] [--rounds 5] [--ops patch]
//   node --expose-gc --import tsx bench/http/console-cost.ts --memory --listeners RequestLog
import { parseArgs } from 'node:util';
import { RequestLog } from '../../examples/server/console/request-log.js';
import type { RequestCompletedEvent } from '../../src/index.js';
import { VERIFIERS, prepareBench, send } from './in-process-ops.js';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    ops: { type: 'string', default: 'create,get by id,put user,patch active' },
    memory: { type: 'boolean', default: false },
    listeners: { type: 'string', default: 'no listener,keep the event,RequestLog' },
  },
});
const iterations = Number(args.iterations);
const rounds = Number(args.rounds);

type Listen = (record: (event: RequestCompletedEvent) => void) => void;
const LISTENERS: Record<string, (listen: Listen) => void> = {
  'no listener': () => undefined,
  'keep the event': (listen) => {
    const kept: RequestCompletedEvent[] = [];
    listen((event) => {
      kept.push(event);
      if (kept.length > 500) kept.shift();
    });
  },
  RequestLog: (listen) => {
    const log = new RequestLog();
    listen((event) => void log.record(event));
  },
};

async function retained(label: string, attach: (listen: Listen) => void): Promise<void> {
  const { scim } = await prepareBench(VERIFIERS.static!(), `mem${label.replace(/\W/g, '')}`);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const headers = {
    authorization: 'Bearer bench-token-0123456789',
    'content-type': 'application/scim+json',
  };
  const path = '/api/v1/scim/v2/Users';
  const created = await scim.handle({
    method: 'POST',
    path,
    headers,
    body: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'big@bench.example.org',
      title: 'x',
    }),
  });
  const { id } = JSON.parse(created.body ?? '{}') as { id: string };
  gc();
  const before = process.memoryUsage().heapUsed;
  attach((record) => scim.onRequest(record));
  for (let i = 0; i < 100; i++) {
    await scim.handle({
      method: 'PATCH',
      path: `${path}/${id}`,
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'title', value: `${i}`.padEnd(256 * 1024, 'x') }],
      }),
    });
  }
  gc();
  const mib = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  console.log(`${label.padEnd(16)} 100 PATCHes setting 256 KiB: ${mib.toFixed(1)} MiB kept`);
  await scim.close();
}

const chosen = Object.entries(LISTENERS).filter(([label]) =>
  args.listeners.split(',').includes(label),
);
if (args.memory) {
  // One listener per process gives figures that do not depend on what ran before.
  for (const [label, attach] of chosen) await retained(label, attach);
  process.exit(0);
}

for (const [label, attach] of chosen) {
  const { scim, ops } = await prepareBench(VERIFIERS.static!(), label.replace(/\W/g, ''));
  attach((record) => scim.onRequest(record));
  for (const name of args.ops.split(',').map((o) => o.trim())) {
    const op = ops[name];
    if (!op) throw new Error(`no operation "${name}"`);
    const samples: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      const start = process.cpuUsage();
      await send(scim, op, round * iterations, iterations);
      const used = process.cpuUsage(start);
      if (round > 0) samples.push((used.user + used.system) / iterations);
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)] ?? NaN;
    console.log(`${label.padEnd(16)} ${name.padEnd(16)} ${median.toFixed(1)} µs/req`);
  }
  await scim.close();
}
