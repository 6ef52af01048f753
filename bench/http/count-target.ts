// One bounded in-process run, the unit `count-instructions.ts` measures: a service with 1,000
// users, `warmup` requests of one operation, then `requests` more; prints the CPU time of
// those. Bundled by esbuild (as tsup builds the package: no tsx, no kept names) and run under
// callgrind or alone.
//
//   node count-target.mjs <operation> <verifier> <warmup> <requests>
import { VERIFIERS, prepareBench, send } from './in-process-ops.js';

const [op = '', verifier = 'static', warmup = '2000', requests = '0'] = process.argv.slice(2);
const make = VERIFIERS[verifier];
if (!make) throw new Error(`no verifier "${verifier}"`);
const { scim, ops } = await prepareBench(make(), verifier);
const operation = ops[op];
if (!operation) throw new Error(`no operation "${op}"`);
// The outbox is drained after each part, so the welcome emails a create queues are sent (and
// counted) with the requests that queued them, not left to `close()`.
await send(scim, operation, 0, Number(warmup));
await scim.dispatchOutbox();
const start = process.cpuUsage();
await send(scim, operation, Number(warmup), Number(requests));
await scim.dispatchOutbox();
const used = process.cpuUsage(start);
await scim.close();
console.log(JSON.stringify({ cpuMicros: used.user + used.system }));
