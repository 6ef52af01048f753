// In-process companion of the HTTP benchmark: the cost of `scim.handle()` alone per operation,
// without sockets or a load generator, so a change in the core shows above the machine's noise.
// Run twice per operation: with the reference `staticApiKeys` verifier (as the example server)
// and with a plain Map lookup, to show what API-key hashing costs per request.
//
//   node --import tsx bench/http/in-process.ts [--iterations 20000] [--ops get,patch] [--verifiers static,map]
import { parseArgs } from 'node:util';
import { VERIFIERS, prepareBench, send } from './in-process-ops.js';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    ops: { type: 'string' },
    verifiers: { type: 'string', default: 'static,map' },
  },
});
const iterations = Number(args.iterations);
const rounds = Number(args.rounds);
const LABELS: Record<string, string> = { static: 'staticApiKeys', map: 'Map verifier' };

async function measure(verifierName: string): Promise<void> {
  const make = VERIFIERS[verifierName];
  if (!make) throw new Error(`no verifier "${verifierName}"`);
  const { scim, ops } = await prepareBench(make(), verifierName);
  const label = LABELS[verifierName] ?? verifierName;
  for (const [name, op] of Object.entries(ops)) {
    if (args.ops && !args.ops.split(',').some((o) => name.includes(o.trim()))) continue;
    const n = name.startsWith('list') ? Math.max(1, iterations / 20) : iterations;
    const samples: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      // CPU time, not wall time: on a shared machine the process is often descheduled.
      const start = process.cpuUsage();
      await send(scim, op, round * n, n);
      const used = process.cpuUsage(start);
      const us = (used.user + used.system) / n;
      if (round > 0) samples.push(us); // round 0 warms up
    }
    samples.sort((a, b) => a - b);
    console.log(
      `${label.padEnd(14)} ${name.padEnd(18)} ${(samples[samples.length >> 1] ?? NaN).toFixed(1).padStart(7)} µs CPU/request (median of ${rounds})`,
    );
  }
  await scim.close();
}

for (const name of args.verifiers.split(',')) await measure(name);
