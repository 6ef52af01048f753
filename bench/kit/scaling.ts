// scimkit's node adapter on the shared kit's scaling.mjs (issue 16): a fresh server per N, N
// users seeded through the API, then unloaded latency of filter, GET by id and list pages, and
// RSS. Writes the kit's tables and the ratios (1M ÷ 10k latency, RSS per user) into
// bench/kit/results/<date>/scaling-<HHMM>/.
//
//   npm run bench:kit:scaling                                         # 10k, 100k, 1M
//   npm run bench:kit:scaling -- --sizes 1000,10000 --servers scimkit-node --no-build   # smoke
//   npm run bench:kit:scaling -- --preseed [--attach 1000000=3399:PID]
//
// `--preseed` (the node server only): the kit seeds through HTTP, at a few hundred users a second
// on a loaded 2-core machine, which does not reach 1,000,000 in a working session. With it, each
// N is a fresh bench/kit/servers/node.mjs that first creates N − 1,000 users through `scim.handle`
// (the same POST path without HTTP, see SCIMKIT_PRESEED in servers/service.mjs); the kit's
// scaling.mjs then adds the last 1,000 through HTTP and measures, as for an external server.
// `--attach N=PORT:PID` measures an already preseeded server for that N (started by hand with the
// same environment, so the slow preseed can overlap other work); it is stopped afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, addSpec, commit, runKitScript, startRun } from './kit.js';

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
    preseed: { type: 'boolean', default: false },
    attach: { type: 'string', default: '' },
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
const { kit, out, load, startedAt } = startRun('scaling', args.out, args['no-build']);
let stopped: string | undefined;
const limitMs = Number(args['time-limit']) * 60_000;
const deadline = Date.now() + limitMs;
let rows: Row[] = [];
if (!args.preseed) {
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
    limitMs,
  ).catch((error: unknown) => {
    stopped = String(error);
    console.error(`== ${stopped}`);
  });
  // scaling.mjs writes its summary only at the end; a stopped run leaves its console lines.
  try {
    rows = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { results: Row[] })
      .results;
  } catch {
    // no summary: the run was stopped before its end
  }
} else {
  servers.splice(0, servers.length, 'scimkit-node');
  const attached = new Map(
    args.attach
      .split(',')
      .filter(Boolean)
      .map((spec) => {
        const [n, where] = spec.split('=');
        const [port, pid] = where!.split(':').map(Number);
        return [Number(n), { port: port!, pid: pid! }] as const;
      }),
  );
  for (const N of sizes) {
    if (Date.now() > deadline) {
      stopped = `time limit reached before N=${N}`;
      break;
    }
    const apiSeed = Math.min(1000, N);
    let server = attached.get(N);
    let stop: () => void;
    if (server === undefined) {
      const child = spawn(
        'taskset',
        [
          '-c',
          '1',
          process.execPath,
          '--max-old-space-size=8192',
          join(ROOT, 'bench/kit/servers/node.mjs'),
        ],
        {
          env: {
            ...process.env,
            PORT: '3350',
            HOST: '127.0.0.1',
            PREFIX: '/api/v1/scim/v2',
            SCIM_TOKEN: 'bench-token',
            SCIMKIT_PRESEED: String(N - apiSeed),
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      console.error(`== N=${N}: preseeding ${N - apiSeed} users in process`);
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(
          () => fail(new Error(`preseed of ${N} passed the time limit`)),
          deadline - Date.now(),
        );
        child.stdout.on('data', (chunk: Buffer) => {
          if (!chunk.toString().includes('listening')) return;
          clearTimeout(timer);
          ready();
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          fail(new Error(`the node server exited (${code})`));
        });
      }).catch((error: unknown) => {
        stopped = String(error);
      });
      if (stopped !== undefined) {
        child.kill('SIGKILL');
        break;
      }
      server = { port: 3350, pid: child.pid! };
      stop = () => child.kill('SIGTERM');
    } else {
      // Measured like the others: the server on CPU 1, the generator on CPU 0.
      spawnSync('taskset', ['-a', '-p', '-c', '1', String(server.pid)]);
      const { pid } = server;
      stop = () => process.kill(pid, 'SIGTERM');
    }
    const dir = join(out, `n-${N}`);
    await runKitScript(
      kit,
      'scaling.mjs',
      [
        '--base',
        `http://127.0.0.1:${server.port}`,
        '--server-pid',
        String(server.pid),
        '--label',
        'scimkit-node',
        '--sizes',
        String(apiSeed),
        '--max-samples',
        args['max-samples'],
        '--time-cap',
        args['time-cap'],
        '--out',
        dir,
      ],
      Math.max(60_000, deadline - Date.now()),
    ).catch((error: unknown) => {
      stopped = String(error);
    });
    stop();
    if (stopped !== undefined) break;
    const [row] = (
      JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { results: Row[] }
    ).results;
    rows.push({ ...row!, N });
  }
}
const loadDuring = load.stop();

const small = sizes[0]!;
const large = sizes[sizes.length - 1]!;
const lines = [
  `Commit ${commit()}, ${startedAt} → ${new Date().toISOString()}, Node ${process.version}.`,
  `Load (1-min average, sampled every 15 s): min ${loadDuring.min}, median ${loadDuring.median}, max ${loadDuring.max} on 2 cores.`,
  `uptime at start: \`${loadDuring.start}\`; at end: \`${loadDuring.end}\`.`,
  ...(stopped === undefined ? [] : [`The scaling run did not finish: ${stopped}.`]),
  ...(args.preseed
    ? ['Users created in process (`--preseed`) up to N − 1,000, the last 1,000 through HTTP.']
    : []),
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
