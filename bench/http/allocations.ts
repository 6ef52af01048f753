// What a request allocates, in bytes, and where: V8's sampling heap profiler over `scim.handle()`
// of one operation of the in-process benchmark (`in-process-ops.ts`: the memory store, 1,000
// users), with the objects the collector has already freed counted too. Unlike time, the bytes
// a request allocates do not move with the machine's load, and through HTTP they cost more
// than a tight loop shows (scavenges, and the caches a request's new objects push out), so this
// is the instrument for a cut in allocation. Figures are sampled (one sample per
// `--interval` bytes on average): read differences under ~3% as noise.
//
//   node --import tsx bench/http/allocations.ts [--ops "get,put,patch,create active"]
//     [--requests 20000] [--warmup 2000] [--top 20] [--interval 256] [--via handle|node]
//     [--events on|log|off] (see `EventsSetting` in in-process-ops.ts)
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { VERIFIERS, prepareBench, send, serveOverNode } from './in-process-ops.js';

const { values: args } = parseArgs({
  options: {
    ops: { type: 'string', default: 'get,filter,put,patch,create active' },
    requests: { type: 'string', default: '20000' },
    warmup: { type: 'string', default: '2000' },
    top: { type: 'string', default: '20' },
    interval: { type: 'string', default: '256' },
    via: { type: 'string', default: 'handle' },
    events: { type: 'string', default: 'on' },
  },
});

/** A node of V8's sampling heap profile. */
interface SampleNode {
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SampleNode[];
}

const requests = Number(args.requests);
const session = new Session();
session.connect();
for (const wanted of args.ops.split(',').map((o) => o.trim())) {
  const { scim, ops } = await prepareBench(VERIFIERS.static!(), 'alloc', args.events);
  const name = Object.keys(ops).find((op) => op.startsWith(wanted));
  const operation = name === undefined ? undefined : ops[name];
  if (operation === undefined) throw new Error(`no operation "${wanted}"`);
  const node = args.via === 'node' ? await serveOverNode(scim) : undefined;
  const target = node ? node.send : scim;
  await send(target, operation, 0, Number(args.warmup));
  await scim.mail?.drain();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: Number(args.interval),
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await send(target, operation, Number(args.warmup), requests);
  await scim.mail?.drain();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  await node?.close();
  await scim.close();
  const bytes = new Map<string, number>();
  const walk = (at: SampleNode): void => {
    const { functionName, url, lineNumber } = at.callFrame;
    const where = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|bench|node_modules)\//, '$1/')}:${lineNumber + 1}`;
    bytes.set(where, (bytes.get(where) ?? 0) + at.selfSize);
    for (const child of at.children) walk(child);
  };
  walk(profile.head as unknown as SampleNode);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  console.log(`\n## ${name}: ${Math.round(total / requests)} bytes per request (${args.via})\n`);
  console.log('| bytes per request | allocated in (inlined callees included) |\n| ---: | --- |');
  for (const [where, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top))) {
    console.log(`| ${Math.round(size / requests)} | \`${where}\` |`);
  }
}
session.disconnect();
