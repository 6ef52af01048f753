// What the example server's console costs per SCIM request, in process: `scim.handle()` with
// no request listener, with a listener that keeps each event as it is (what a log that copies
// nothing costs), and with the console's `RequestLog`, which copies a bounded view of each
// request when it is recorded. CPU µs per request, medians over rounds.
//
//   node --import tsx bench/http/console-cost.ts [--iterations 20000] [--rounds 5] [--ops patch]
import { parseArgs } from 'node:util';
import { RequestLog } from '../../examples/server/console/request-log.js';
import type { RequestCompletedEvent } from '../../src/index.js';
import { VERIFIERS, prepareBench, send } from './in-process-ops.js';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    ops: { type: 'string', default: 'create,get by id,put user,patch active' },
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

for (const [label, attach] of Object.entries(LISTENERS)) {
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
