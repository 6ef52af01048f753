// scimkit on the shared benchmark kit (issue 16): builds dist, prepares a scratch copy of the kit,
// runs its run-suite.mjs with raw, raw-store, the three framework floors, SCIMMY and every
// scimkit server (6 alternating repeats by default), pools the repeats with its pool.mjs, and
// writes the ratios issue 16 sets targets on, with the machine's load, into
// bench/kit/results/<date>/suite-<HHMM>/.
//
//   npm run bench:kit                                    # the full run (about an hour)
//   npm run bench:kit -- --repeats 1 --duration 1 --warmup 0 --seed 500   # a smoke run
//   npm run bench:kit -- --servers raw-store,scimkit-node --repeats 2 --no-build
//   npm run bench:kit -- --servers raw-store,scimkit-node,main=../main/bench/kit/servers/node.mjs
//     (a kit server of another checkout, with that checkout's dist, beside this one's)
//   npm run bench:kit -- --servers raw-pg,scimkit-node-pg,scimkit-node-pglite --connections 64
//     (the PostgreSQL store beside the kit's raw-pg; needs a server at DATABASE_URL)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SCIMKIT_SERVERS, addSpec, commit, runKitScript, serverNames, startRun } from './kit.js';
import { ratios } from './ratios.js';

const REFERENCES = ['raw', 'raw-store', 'express5', 'fastify5', 'hono4', 'scimmy'];

const { values: args } = parseArgs({
  options: {
    servers: {
      type: 'string',
      default: [...REFERENCES, ...Object.keys(SCIMKIT_SERVERS)].join(','),
    },
    repeats: { type: 'string', default: '6' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    seed: { type: 'string', default: '10000' },
    // Concurrent connections of the load generator.
    connections: { type: 'string', default: '16' },
    scenarios: { type: 'string', default: 'filter,get,list_first,list_deep,patch,put,create' },
    out: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    // The whole suite is stopped after this many minutes.
    'time-limit': { type: 'string', default: '120' },
  },
});

const entries = args.servers.split(',');
const servers = serverNames(entries);
const { kit, out, load, startedAt } = startRun('suite', args.out, args['no-build']);
console.error(`== run-suite: ${servers.join(', ')}; ${args.repeats} repeats; results in ${out}`);
let stopped: string | undefined;
await runKitScript(
  kit,
  'run-suite.mjs',
  [
    '--servers',
    servers.join(','),
    '--add',
    addSpec(entries),
    '--repeats',
    args.repeats,
    '--duration',
    args.duration,
    '--warmup',
    args.warmup,
    '--seed',
    args.seed,
    '--connections',
    args.connections,
    '--scenarios',
    args.scenarios,
    '--out',
    out,
  ],
  Number(args['time-limit']) * 60_000,
).catch((error: unknown) => {
  // Whatever repeats finished are still read below, and the reason is written with them.
  stopped = String(error);
  console.error(`== ${stopped}`);
});
const loadDuring = load.stop();
const refs = REFERENCES.filter((name) => servers.includes(name));
if (refs.length > 0) {
  await runKitScript(
    kit,
    'pool.mjs',
    [out, '--refs', refs.join(','), '--out', join(out, 'pooled')],
    60_000,
  );
}
const result = ratios(out);
const meta = {
  stopped,
  startedAt,
  endedAt: new Date().toISOString(),
  commit: commit(),
  node: process.version,
  options: args,
  load: loadDuring,
};
writeFileSync(
  join(out, 'ratios.json'),
  `${JSON.stringify({ ...meta, ...(result.data as object) }, null, 2)}\n`,
);
const header = [
  `Commit ${meta.commit}, ${startedAt} → ${meta.endedAt}, Node ${process.version}.`,
  `Load (1-min average, sampled every 15 s): min ${loadDuring.min}, median ${loadDuring.median}, max ${loadDuring.max} on 2 cores.`,
  `uptime at start: \`${loadDuring.start}\`; at end: \`${loadDuring.end}\`.`,
  ...(stopped === undefined ? [] : [`The suite did not finish: ${stopped}.`]),
  '',
].join('\n');
writeFileSync(join(out, 'ratios.md'), `${header}\n${result.markdown}`);
console.log(`\n${header}\n${result.markdown}`);
console.error(
  `== written: ${join(out, 'summary.md')}, ${join(out, 'pooled/pooled.md')}, ${join(out, 'ratios.md')}`,
);
if (!result.valid) process.exitCode = 1;
