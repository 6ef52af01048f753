// One bounded in-process run, the unit `count-instructions.ts` measures: a service with 1,000
// users, `warmup` requests of one operation, then `requests` more; prints the CPU time of
// those. Bundled by esbuild (as tsup builds the package: no tsx, no kept names) and run under
// callgrind or alone.
//
// With `node` as the fifth argument the requests go over loopback to the `node:http` adapter
// served in the same process (`serveOverNode`), so the adapter's request path is counted too.
//
// The sixth argument says what the memory store keeps of events (`EventsSetting` of
// in-process-ops.ts): `on` (default), `log` (no welcome email) or `off`, `log:N` to keep N.
//
//   node count-target.mjs <operation> <verifier> <warmup> <requests> [handle|node] [on|log|off[:N]]
import { VERIFIERS, prepareBench, send, serveOverNode } from './in-process-ops.js';

const [
  op = '',
  verifier = 'static',
  warmup = '2000',
  requests = '0',
  via = 'handle',
  events = 'on',
] = process.argv.slice(2);
const make = VERIFIERS[verifier];
if (!make) throw new Error(`no verifier "${verifier}"`);
const { scim, ops } = await prepareBench(make(), verifier, events);
const operation = ops[op];
if (!operation) throw new Error(`no operation "${op}"`);
const node = via === 'node' ? await serveOverNode(scim) : undefined;
const target = node ? node.send : scim;
// The welcome emails a create asks for are sent after each part, so they are counted with the
// requests that asked for them, not left to `close()`: by the welcome subscriber, or by the
// outbox dispatcher of a version from before it (compared with `--refs`).
const outbox = scim as { dispatchOutbox?: () => Promise<number> };
const sendMail = async () => {
  await scim.mail?.drain();
  await outbox.dispatchOutbox?.();
};
await send(target, operation, 0, Number(warmup));
await sendMail();
const start = process.cpuUsage();
await send(target, operation, Number(warmup), Number(requests));
await sendMail();
const used = process.cpuUsage(start);
await node?.close();
await scim.close();
console.log(JSON.stringify({ cpuMicros: used.user + used.system }));
