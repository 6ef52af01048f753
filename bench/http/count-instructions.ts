// What a change costs, counted rather than timed: the instructions per `scim.handle()` of two
// or more versions of the library, side by side, under valgrind's callgrind. Instruction counts
// do not move with the machine's load, so on a shared machine they show a change of a few
// percent that wall-clock time hides. Each version (a git ref, or WORKTREE for the files as
// they are) is bundled by esbuild, as tsup builds the package, with the same harness
// (`count-target.ts`); each count is the difference of two runs of the same process with
// `--requests` A and B requests, so start-up, the 1,000 users preloaded and the warm-up cancel
// out. `--wall N` adds N alternating rounds of the bundles run alone (CPU µs per request,
// median), with the load average. `--via node` sends the requests over loopback to the
// `node:http` adapter served in the same process, so the adapter's path (body read, response
// write) is counted too, with a client whose cost is the same for every ref. Needs `valgrind`.
//
//   node --import tsx bench/http/count-instructions.ts --refs main,WORKTREE [--ops get,list]
//     (ops: create, create active, get, filter, list, put, patch active, patch displayName,
//     kit patch, kit put: the shared kit's PATCH and PUT, which change nothing after the first)
//     [--requests 1000,4000] [--rounds 2] [--verifier static] [--wall 5] [--via handle|node]
//     [--events on|log|off, or one per ref] (log: the memory store's event log without the welcome email;
//     off: no log; `log:N` keeps the most recent N events: see `EventsSetting` in in-process-ops.ts)
//     [--rounds 0 --wall N] (CPU time only, without valgrind)
//     [--modules DIR] (a node_modules folder with what an older ref needs and today's does not:
//     `valibot` for a ref before it was dropped, e.g. `npm i --prefix /tmp/old valibot@1.5.0`)
import { build } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    refs: { type: 'string', default: 'main,WORKTREE' },
    ops: { type: 'string', default: 'create,get,filter,list,patch' },
    requests: { type: 'string', default: '1000,4000' },
    warmup: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '1' },
    verifier: { type: 'string', default: 'static' },
    wall: { type: 'string', default: '0' },
    via: { type: 'string', default: 'handle' },
    events: { type: 'string', default: 'on' },
    modules: { type: 'string' },
  },
});
const root = new URL('../../', import.meta.url).pathname;
const HARNESS = ['count-target.ts', 'in-process-ops.ts', 'operations.ts'];
const ALL_OPS = [
  'create',
  'create active',
  'get by id',
  'filter userName',
  'list page of 100',
  'put user',
  'patch active',
  'patch displayName',
  'kit patch',
  'kit put',
];
const ops = ALL_OPS.filter((op) => args.ops.split(',').some((o) => op.startsWith(o.trim())));
const [small, large] = args.requests.split(',').map(Number) as [number, number];
const work = mkdtempSync(join(tmpdir(), 'scimkit-count-'));

// The library of `ref` with today's harness, bundled into one file.
async function bundle(ref: string, index: number): Promise<string> {
  const dir = join(work, String(index));
  mkdirSync(join(dir, 'bench/http'), { recursive: true });
  if (ref === 'WORKTREE') cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
  else execFileSync('sh', ['-c', `git -C "${root}" archive "${ref}" src | tar -x -C "${dir}"`]);
  for (const f of HARNESS) copyFileSync(join(root, 'bench/http', f), join(dir, 'bench/http', f));
  const outfile = join(dir, 'count-target.mjs');
  await build({
    entryPoints: [join(dir, 'bench/http/count-target.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    nodePaths: [join(root, 'node_modules'), ...(args.modules ? [args.modules] : [])],
    logLevel: 'warning',
  });
  return outfile;
}

function run(command: string, argv: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

function sizes(op: string): { warmup: number; n: [number, number] } {
  // A page of 100 costs about twenty single-user requests.
  const k = op.startsWith('list') ? 20 : 1;
  return {
    warmup: Math.ceil(Number(args.warmup) / k),
    n: [Math.ceil(small / k), Math.ceil(large / k)],
  };
}

// Instructions of a callgrind output: all of them, and those V8's optimizing compiler
// (TurboFan) spent. A function called once per request is optimized only after many requests,
// so which compilations fall between the two runs of a count depends on `--warmup` and
// `--requests`, not on what a request costs; a difference of a few percent can be nothing but
// that (a page of 100 after 100 pages of warm-up: about a third of its count).
interface Count {
  readonly total: number;
  readonly compiler: number;
}

// A callgrind file names a function once (`fn=(7) name`) and by number after (`fn=(7)`); a cost
// line after `calls=` is the inclusive cost of that call, not the function's own.
function readCallgrind(text: string): Count {
  const total = Number(/^(?:totals|summary): (\d+)/m.exec(text)?.[1] ?? NaN);
  const names = new Map<string, string>();
  let inCompiler = false;
  let skipNext = false;
  let compiler = 0;
  for (const line of text.split('\n')) {
    const named = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      const [, id = '', name] = named;
      if (name !== undefined) names.set(id, name);
      if (line.startsWith('fn=')) inCompiler = COMPILER.test(names.get(id) ?? '');
      continue;
    }
    if (line.startsWith('calls=')) {
      skipNext = true;
      continue;
    }
    if (!/^[+\-*\d]/.test(line)) continue;
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (inCompiler) compiler += Number(line.split(' ')[1] ?? 0);
  }
  return { total, compiler };
}
const COMPILER = /^v8::internal::(?:compiler::|Zone::)/;

async function instructions(
  file: string,
  events: string,
  op: string,
  warmup: number,
  n: number,
): Promise<Count> {
  const out = join(work, `cg-${process.hrtime.bigint()}`);
  await run('valgrind', [
    '--tool=callgrind',
    `--callgrind-out-file=${out}`,
    '--dump-instr=no',
    'node',
    '--single-threaded',
    file,
    op,
    args.verifier,
    String(warmup),
    String(n),
    args.via,
    events,
  ]);
  const text = readFileSync(out, 'utf8');
  rmSync(out);
  return readCallgrind(text);
}

async function perRequest(file: string, events: string, op: string): Promise<Count> {
  const { warmup, n } = sizes(op);
  // The two runs side by side: one per core.
  const [a, b] = await Promise.all(n.map((count) => instructions(file, events, op, warmup, count)));
  const per = (key: keyof Count) => ((b?.[key] ?? NaN) - (a?.[key] ?? NaN)) / (n[1] - n[0]);
  return { total: per('total'), compiler: per('compiler') };
}

async function cpuMicros(file: string, events: string, op: string): Promise<number> {
  const { warmup, n } = sizes(op);
  const out = await run('node', [
    file,
    op,
    args.verifier,
    String(warmup),
    String(n[1]),
    args.via,
    events,
  ]);
  return (
    (JSON.parse(out.trim().split('\n').pop() ?? '{}') as { cpuMicros: number }).cpuMicros / n[1]
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const refs = args.refs.split(',');
const files = await Promise.all(refs.map((ref, i) => bundle(ref, i)));
// One setting for every ref, or one per ref (`--refs main,main --events off,on`).
const eventsOf = args.events.split(',');
if (eventsOf.length !== 1 && eventsOf.length !== refs.length)
  throw new Error('--events: one setting, or one per ref');
const events = refs.map((_, i) => (eventsOf[i] ?? eventsOf[0]) as string);
const labels = refs.map((ref, i) => (eventsOf.length > 1 ? `${ref} ${events[i]}` : ref));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `refs ${labels.join(' / ')}; verifier ${args.verifier}; via ${args.via}; events ${args.events}; load average ${load()}`,
);
const rows: string[] = [];
for (const op of ops) {
  const counts = refs.map((): Count[] => []);
  const times = refs.map((): number[] => []);
  for (let round = 0; round < Number(args.rounds); round++) {
    // Alternate the order: neither version always runs first.
    const order = refs.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      counts[i]?.push(await perRequest(files[i] as string, events[i] as string, op));
      const last = counts[i]?.at(-1);
      console.log(
        `  ${op} ${labels[i]}: ${Math.round(last?.total ?? NaN)} instructions/request, ${Math.round(last?.compiler ?? NaN)} of them compiling`,
      );
    }
  }
  for (let round = 0; round < Number(args.wall); round++) {
    const order = refs.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order)
      times[i]?.push(await cpuMicros(files[i] as string, events[i] as string, op));
  }
  const cells = refs.map((_, i) => {
    const c = counts[i] ?? [];
    const t = times[i] ?? [];
    const k = (x: number) => `${(x / 1000).toFixed(1)}k`;
    const instr = c.length
      ? c.map((x) => `${k(x.total)} (${k(x.total - x.compiler)})`).join(' / ')
      : '–';
    return t.length ? `${instr}; ${median(t).toFixed(1)} µs` : instr;
  });
  const total = (i: number) => median((counts[i] ?? []).map((x) => x.total));
  const rest = (i: number) => median((counts[i] ?? []).map((x) => x.total - x.compiler));
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  const wall = (i: number) => median(times[i] ?? []);
  // Without counts (`--rounds 0`), the ratio of the CPU times.
  const ratios = refs
    .slice(1)
    .map((_, i) =>
      counts[0]?.length
        ? `${percent(total(i + 1) / total(0))} (${percent(rest(i + 1) / rest(0))})`
        : `${percent(wall(i + 1) / wall(0))} (CPU)`,
    );
  rows.push(`| ${op} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
  console.log(rows[rows.length - 1]);
}
console.log(`\nload average at the end ${load()}`);
console.log('in brackets: without the instructions of the optimizing compiler (TurboFan)\n');
console.log(
  `| operation | ${labels.join(' | ')} | ${labels
    .slice(1)
    .map((r) => `${r} ÷ ${labels[0]}`)
    .join(' | ')} |`,
);
console.log(
  `| --- | ${refs.map(() => '---:').join(' | ')} | ${refs
    .slice(1)
    .map(() => '---:')
    .join(' | ')} |`,
);
for (const row of rows) console.log(row);
rmSync(work, { recursive: true, force: true });
