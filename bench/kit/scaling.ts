// scimkit's node adapter on the shared kit's scaling.mjs (issue 16): a fresh server per N, N
// users seeded through the API, then unloaded latency of filter, GET by id and list pages, and
// RSS. Writes the kit's tables and the ratios (1M ÷ 10k latency, RSS per user) into
// bench/kit/results/<date>/scaling-<HHMM>/.
//
//   npm run bench:kit:scaling                                         # 10k, 100k, 1M
//   npm run bench:kit:scaling -- --sizes 1000,10000 --servers scimkit-node --no-build   # smoke
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  addSpec,
  build,
  commit,
  ensureWrk,
  loadSampler,
  prepareKit,
  resultsDir,
  runKitScript,
} from './kit.js';

const { values: args } = parseArgs({
  options: {
    servers: { type: 'string', default: 'scimkit-node,raw-store' },
    sizes: { type: 'string', default: '10000,100000,1000000' },
    'max-samples': { type: 'string', default: '300' },
    // Seconds each latency measure may take (after its first 3 samples).
    'time-cap': { type: 'string', default: '8' },
    out: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    // The whole scaling run is stopped after this many minutes.
    'time-limit': { type: 'string', default: '40' },
  },
});

/** One row of the kit's scaling summary. */
interface Row {
  readonly server: string;
  readonly N: number;
  readonly filter: Measure;
  readonly get: Measure;
  readonly list_first: Measure;
  readonly list_deep: Measure;
  readonly rssAfterSeedMiB: number | null;
}
interface Measure {
  readonly p50: number;
  readonly samples: number;
  readonly check: string;
}

const servers = args.servers.split(',');
const sizes = args.sizes.split(',').map(Number);
const out = args.out ?? resultsDir('scaling');
ensureWrk();
build(args['no-build']);
const kit = prepareKit();
const load = loadSampler();
const startedAt = new Date().toISOString();
let stopped: string | undefined;
await runKitScript(
  kit,
  'scaling.mjs',
  [
    '--servers',
    servers.join(','),
    '--add',
    addSpec(servers),
    '--sizes',
    sizes.join(','),
    '--max-samples',
    args['max-samples'],
    '--time-cap',
    args['time-cap'],
    '--out',
    out,
  ],
  Number(args['time-limit']) * 60_000,
).catch((error: unknown) => {
  stopped = String(error);
  console.error(`== ${stopped}`);
});
const loadDuring = load.stop();

// scaling.mjs writes its summary only at the end; a stopped run leaves its console lines.
let rows: Row[] = [];
try {
  rows = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { results: Row[] })
    .results;
} catch {
  // no summary: the run was stopped before its end
}
const small = sizes[0]!;
const large = sizes[sizes.length - 1]!;
const lines = [
  `Commit ${commit()}, ${startedAt} → ${new Date().toISOString()}, Node ${process.version}.`,
  `Load (1-min average, sampled every 15 s): min ${loadDuring.min}, median ${loadDuring.median}, max ${loadDuring.max} on 2 cores.`,
  `uptime at start: \`${loadDuring.start}\`; at end: \`${loadDuring.end}\`.`,
  ...(stopped === undefined ? [] : [`The scaling run did not finish: ${stopped}.`]),
  '',
  `Latency at ${large.toLocaleString('en-US')} ÷ at ${small.toLocaleString('en-US')} users (p50, unloaded; target ≤ 1.2x for filter, get and pages), and RSS per user (target ≤ 1 KiB):`,
  '',
  '| server | filter | get | list_first | list_deep | RSS ÷ users at the largest N | RSS growth ÷ users added |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
];
const checks: string[] = [];
for (const server of servers) {
  const a = rows.find((r) => r.server === server && r.N === small);
  const b = rows.find((r) => r.server === server && r.N === large);
  for (const r of rows.filter((x) => x.server === server)) {
    for (const k of ['filter', 'get', 'list_first', 'list_deep'] as const) {
      if (r[k].check !== 'ok') checks.push(`${server} N=${r.N} ${k}: ${r[k].check}`);
    }
  }
  if (a === undefined || b === undefined) {
    lines.push(`| ${server} | - | - | - | - | - | - |`);
    continue;
  }
  const ratio = (k: 'filter' | 'get' | 'list_first' | 'list_deep') => {
    const x = b[k].p50 / a[k].p50;
    return `${x.toFixed(2)}x (${a[k].p50.toFixed(3)} → ${b[k].p50.toFixed(3)} ms)${server.startsWith('scimkit') ? (x <= 1.2 ? ' **met**' : ' not met') : ''}`;
  };
  const kib = (mib: number | null, users: number) => (mib === null ? null : (mib * 1024) / users);
  const perUser = kib(b.rssAfterSeedMiB, large);
  const growth =
    b.rssAfterSeedMiB === null || a.rssAfterSeedMiB === null
      ? null
      : kib(b.rssAfterSeedMiB - a.rssAfterSeedMiB, large - small);
  const verdict = (x: number | null) =>
    x === null
      ? '-'
      : `${x.toFixed(2)} KiB${server.startsWith('scimkit') ? (x <= 1 ? ' **met**' : ' not met') : ''}`;
  lines.push(
    `| ${server} | ${ratio('filter')} | ${ratio('get')} | ${ratio('list_first')} | ${ratio('list_deep')} | ${verdict(perUser)} | ${verdict(growth)} |`,
  );
}
lines.push(
  '',
  checks.length === 0
    ? 'Every check ok.'
    : `Check failures (the run does not count): ${checks.join('; ')}.`,
  '',
);
writeFileSync(join(out, 'ratios.md'), lines.join('\n'));
writeFileSync(
  join(out, 'ratios.json'),
  `${JSON.stringify({ startedAt, stopped, load: loadDuring, sizes, servers, rows }, null, 2)}\n`,
);
console.log(lines.join('\n'));
if (checks.length > 0 || stopped !== undefined) process.exitCode = 1;
