// Where a kit server spends its time, per operation: starts bench/kit/servers/<server>.mjs
// (default node; the built dist) under `--cpu-prof` pinned to CPU 1, seeds it and loads one kit scenario with the
// kit's http-bench.mjs (wrk on CPU 0), stops it, and summarises the profile through dist's source
// maps: the frames with the most self time, the same time charged to the nearest scimkit
// function, and scimkit functions by inclusive time. Writes profile.md and the .cpuprofile files
// into bench/kit/results/<date>/profile-<HHMM>/.
//
//   node --import tsx bench/kit/profile.ts [--ops patch,create,list_first] [--duration 5] [--seed 1000]
//     [--server node|hono|fastify|express|fetch|<path to any kit server .mjs, e.g. a baseline>]
//     [--perf]
//
// With --perf the server runs under `node --perf-basic-prof` and `perf record -e cpu-clock -g`
// samples it (kernel included) for the measured window only, after seeding and warm-up; the
// summary (bench/kit/perf-summary.ts) gives µs of CPU per request by kind of frame and charged to
// the server's own functions. V8's --cpu-prof, the default, charges kernel and V8 runtime time to
// whichever JavaScript frame is on top.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, commit, runKitScript, startRun } from './kit.js';
import { distSources, summarisePerf } from './perf-summary.js';

const { values: args } = parseArgs({
  options: {
    ops: { type: 'string', default: 'patch,create,list_first,list_deep' },
    server: { type: 'string', default: 'node' },
    duration: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1000' },
    top: { type: 'string', default: '10' },
    perf: { type: 'boolean', default: false },
    out: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});

/** A node of a V8 `.cpuprofile`. */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly hitCount?: number;
  readonly children?: readonly number[];
}

const TOKEN = 'bench-token';
// Samples per second of CPU time for `perf record` (--perf).
const PERF_HZ = 4000;
const EXIT_ON_SIGNAL =
  "for (const s of ['SIGTERM', 'SIGINT']) process.once(s, () => process.exit(0));";
const serverFile = args.server.endsWith('.mjs')
  ? args.server
  : join(ROOT, `bench/kit/servers/${args.server}.mjs`);
const PREFIX = '/api/v1/scim/v2';
const { kit, out, load } = startRun('profile', args.out, args['no-build']);
const sections: string[] = [];

for (const [i, op] of args.ops.split(',').entries()) {
  const port = 3400 + i;
  if (args.perf) {
    sections.push(await perfOne(op, port));
    continue;
  }
  const profDir = join(out, `tmp-${op}`);
  rmSync(profDir, { recursive: true, force: true });
  const server = await startServer(port, ['--cpu-prof', `--cpu-prof-dir=${profDir}`]);
  try {
    await runKitScript(
      kit,
      'http-bench.mjs',
      [
        ...benchTarget(port),
        '--seed',
        args.seed,
        '--fast-seed',
        '--scenarios',
        op,
        '--duration',
        args.duration,
        '--server-pid',
        String(server.pid),
        '--label',
        `profile-${op}`,
        '--out',
        out,
        '--quiet',
      ],
      5 * 60_000,
    );
  } finally {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no profile written for ${op}`);
  renameSync(join(profDir, file), join(out, `${op}.cpuprofile`));
  rmSync(profDir, { recursive: true, force: true });
  rmSync(join(out, `profile-${op}.seed.tsv`), { force: true });
  sections.push(summarise(op, join(out, `${op}.cpuprofile`), Number(args.top)));
}
const during = load.stop();
const method = args.perf
  ? `under \`perf record -e cpu-clock -F ${PERF_HZ} -g\` for the measured window only (\`node --perf-basic-prof\`)`
  : 'under `--cpu-prof`; percentages are of all non-idle samples of the process (seeding and start-up included)';
const text = [
  `# Where the ${args.server} kit server's time goes (commit ${commit()}, ${new Date().toISOString()})`,
  '',
  `Each operation: a fresh \`${relative(ROOT, serverFile)}\`, ${args.seed} users seeded, then the kit's wrk scenario for ${args.duration} s, ${method}. Load ${during.min}–${during.max} (1-min average) on 2 cores.`,
  '',
  ...sections,
].join('\n');
writeFileSync(join(out, 'profile.md'), text);
console.log(text);

function summarise(op: string, path: string, top: number): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as { nodes: ProfileNode[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const sourceOf = distSources(ROOT);
  const distPrefix = `file://${join(ROOT, 'dist')}/`;
  /** `src/...:line function` for a frame of dist, else undefined. */
  const place = (n: ProfileNode): string | undefined => {
    const { url, lineNumber, columnNumber, functionName } = n.callFrame;
    if (!url.startsWith(distPrefix)) return undefined;
    return `${functionName || '(anonymous)'} ${sourceOf(url, lineNumber, columnNumber)}`;
  };
  const label = (n: ProfileNode): string => {
    const mine = place(n);
    if (mine !== undefined) return mine;
    const { functionName, url } = n.callFrame;
    const where =
      url === ''
        ? ''
        : ` ${url.replace(/^file:\/\/.*\/node_modules\//, '').replace(/^node:/, 'node:')}`;
    return `${functionName || '(anonymous)'}${where}`;
  };
  const self = new Map<string, number>();
  const charged = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (hits === 0 || n.callFrame.functionName === '(idle)') continue;
    total += hits;
    self.set(label(n), (self.get(label(n)) ?? 0) + hits);
    // Walk up the stack: the nearest scimkit frame is charged; each scimkit function once.
    let chargedTo: string | undefined;
    const seen = new Set<string>();
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
      const mine = place(byId.get(id)!);
      if (mine === undefined) continue;
      chargedTo ??= mine;
      if (!seen.has(mine)) {
        seen.add(mine);
        inclusive.set(mine, (inclusive.get(mine) ?? 0) + hits);
      }
    }
    const key = chargedTo ?? `(outside scimkit) ${label(n)}`;
    charged.set(key, (charged.get(key) ?? 0) + hits);
  }
  const table = (title: string, m: Map<string, number>) =>
    [
      `| ${title} | share |`,
      '| --- | ---: |',
      ...[...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, v]) => `| \`${k.replace(/\|/g, '\\|')}\` | ${((100 * v) / total).toFixed(1)}% |`),
    ].join('\n');
  return [
    `## ${op}`,
    '',
    `${total} samples.`,
    '',
    table('frame (self time)', self),
    '',
    table(
      'nearest scimkit function (self time of it and of the library and engine code it calls)',
      charged,
    ),
    '',
    table('scimkit function (inclusive)', inclusive),
    '',
  ].join('\n');
}

/** Starts the server on `port` (pinned to CPU 1) with `nodeFlags`; resolves once it listens. */
async function startServer(port: number, nodeFlags: readonly string[]) {
  const server = spawn(
    'taskset',
    [
      '-c',
      '1',
      process.execPath,
      ...nodeFlags,
      // A baseline does not exit on SIGTERM by itself; exiting normally writes a profile.
      `--import=data:text/javascript,${encodeURIComponent(EXIT_ON_SIGNAL)}`,
      serverFile,
    ],
    {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PREFIX, SCIM_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((ready, fail) => {
    server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && ready());
    server.once('exit', (code) =>
      fail(new Error(`the ${args.server} kit server exited (${code})`)),
    );
  });
  return server;
}

/** The kit harness's arguments that point it at the server on `port`. */
function benchTarget(port: number): string[] {
  return ['--base', `http://127.0.0.1:${port}`, '--prefix', PREFIX, '--token', TOKEN];
}

/** One operation under perf: seed, then load it while perf samples the measured window. */
async function perfOne(op: string, port: number): Promise<string> {
  const server = await startServer(port, ['--perf-basic-prof']);
  const pid = String(server.pid);
  const data = join(out, `${op}.perf.data`);
  const bench = (more: readonly string[]) =>
    runKitScript(kit, 'http-bench.mjs', [...benchTarget(port), '--quiet', ...more], 5 * 60_000);
  const seconds = Math.max(2, Number(args.duration) - 1);
  let rps: number;
  try {
    const seed = ['--seed', args.seed, '--fast-seed', '--label', 'perf-seed', '--out', out];
    await bench([...seed, '--scenarios', 'none']);
    // The measured run warms up for 1 s; perf starts after it and stops before the run ends.
    const recorded = new Promise<void>((done, fail) => {
      setTimeout(() => {
        const perf = spawn(
          'perf',
          ['record', '-e', 'cpu-clock', '-F', String(PERF_HZ), '-g', '-p', pid, '-o', data],
          { stdio: 'ignore' },
        );
        setTimeout(() => perf.kill('SIGINT'), seconds * 1000);
        perf.once('exit', () => done());
        perf.once('error', fail);
      }, 1500);
    });
    await Promise.all([
      recorded,
      bench([
        '--seed-file',
        join(out, 'perf-seed.seed.tsv'),
        '--scenarios',
        op,
        '--duration',
        args.duration,
        '--server-pid',
        pid,
        '--label',
        `profile-${op}`,
        '--out',
        out,
      ]),
    ]);
    const result = JSON.parse(readFileSync(join(out, `profile-${op}.json`), 'utf8')) as {
      scenarios: { rps: number }[];
    };
    rps = result.scenarios[0]?.rps ?? Number.NaN;
  } finally {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  const summary = summarisePerf({
    data,
    serverFile,
    root: ROOT,
    requests: rps * seconds,
    frequency: PERF_HZ,
    top: Number(args.top),
  });
  const seedFiles = ['seed.tsv', 'json', 'md'].map((ext) => join(out, `perf-seed.${ext}`));
  for (const file of [
    data,
    `/tmp/perf-${pid}.map`,
    `${join(out, `profile-${op}`)}.seed.tsv`,
    ...seedFiles,
  ])
    rmSync(file, { force: true });
  return [`## ${op}`, '', `${rps} req/s.`, '', summary, ''].join('\n');
}
