/**
 * The Bulk benchmark's noise-free companion: the user-space instructions that N operations cost
 * in one `/Bulk` request and as N requests one by one, in process (`scim.handle`, memory store),
 * counted by valgrind's callgrind. Counts do not depend on what else the shared machine does.
 * For each side a child process runs under callgrind: it runs the whole workload a few times
 * (warm-up, on services it then discards), then, on a fresh service, each measured phase (N creates, N
 * PATCHes, N PUTs, N DELETEs of those users) between two dumps this process asks callgrind for.
 *
 * Repeatable: V8 schedules collections partly by time, and a process slowed 50× by valgrind
 * collects at other points on every run; and it optimises a function (on the main thread:
 * `--single-threaded`) in whichever phase makes it hot, tens of millions of instructions each.
 * So the child runs with `--predictable-gc-schedule` (collections by heap size, not time) and an
 * old generation of 512 MB (`--initial-old-space-size`: no full collection in the run, only
 * young-generation ones, whose count follows from what the side allocates and keeps alive), warms
 * up on `--warmup` rounds of the whole workload uncounted (`--instr-atstart=no`), and runs a
 * young-generation collection before each phase (uncounted) and at its end (counted), so each
 * side pays for the garbage it made. Not a forced full collection: it discards V8's optimised
 * code, and the next phase would count its compilation. The functions called once per request
 * (a Bulk request's reading, `runBulk`) are still optimised in later rounds, so each count is
 * also given without the instructions of TurboFan (`Compiler::CompileOptimized`, callees
 * included): a compilation a server pays once, not per request.
 *
 * Run: `node --import tsx bench/bulk/instructions.ts [--n 1000] [--refs WORKTREE,main]`
 * (needs `valgrind`; a few minutes: each child runs about 50 times slower under it); `--keep`
 * keeps each side's callgrind dumps (one per phase, for `callgrind_annotate`). Each ref
 * (a git ref, or WORKTREE for the files as they are) runs with today's bench/bulk harness; all
 * children run side by side.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scim } from '../../src/index.js';
import { callgrindCount, spawnUnderCallgrind } from '../callgrind-count.js';
import { BULK, patchBody, putBody, send, service, userBody } from './workload.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '1000' },
    refs: { type: 'string', default: 'WORKTREE' },
    keep: { type: 'boolean', default: false },
    warmup: { type: 'string', default: '4' },
    child: { type: 'string' },
  },
});
const N = Number(args.n);
const WARMUP = Number(args.warmup);
const PHASES = ['create', 'patch', 'put', 'delete'] as const;
type Side = 'one' | 'bulk';
type Phase = (typeof PHASES)[number];
const METHOD: Record<Phase, string> = {
  create: 'POST',
  patch: 'PATCH',
  put: 'PUT',
  delete: 'DELETE',
};
const LABEL: Record<Phase, string> = {
  create: 'creates',
  patch: 'PATCHes',
  put: 'PUTs',
  delete: 'DELETEs',
};
const bodyOf = (phase: Phase, i: number): unknown =>
  phase === 'create'
    ? userBody(i)
    : phase === 'patch'
      ? patchBody
      : phase === 'put'
        ? putBody(i)
        : undefined;

/** Runs one phase on one side; returns the ids of the users (created, or still there). */
async function run(scim: Scim, side: Side, phase: Phase, ids: string[]): Promise<string[]> {
  const count = phase === 'create' ? N : ids.length;
  const path = (i: number) => (phase === 'create' ? '/Users' : `/Users/${ids[i]}`);
  if (side === 'one') {
    const created: string[] = [];
    for (let i = 0; i < count; i++) {
      const r = await send(scim, METHOD[phase], path(i), bodyOf(phase, i));
      if (phase === 'create') created.push((JSON.parse(r.body as string) as { id: string }).id);
    }
    return phase === 'create' ? created : ids;
  }
  const operations = Array.from({ length: count }, (_, i) => ({
    method: METHOD[phase],
    path: path(i),
    ...(phase === 'create' ? { bulkId: `b${i}` } : {}),
    ...(phase === 'delete' ? {} : { data: bodyOf(phase, i) }),
  }));
  const r = await send(scim, 'POST', '/Bulk', { schemas: [BULK], Operations: operations });
  if (phase !== 'create') return ids;
  const results = (JSON.parse(r.body as string) as { Operations: { location: string }[] })
    .Operations;
  return results.map((o) => o.location.slice(o.location.lastIndexOf('/') + 1));
}

// The child: warms up uncounted, then waits for the parent's word around each measured phase.
async function child(side: Side): Promise<void> {
  const collect = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
  if (collect === undefined) throw new Error('run with --expose-gc');
  const ask = (message: string) =>
    new Promise<void>((resolve) => {
      process.once('message', () => resolve());
      process.send?.(message);
    });
  for (let round = 0; round < WARMUP; round++) {
    const warm = service();
    let ids: string[] = [];
    for (const phase of PHASES) ids = await run(warm, side, phase, ids);
    await warm.close();
  }
  await ask('count'); // callgrind counts from here on
  const scim = service();
  let ids: string[] = [];
  for (const phase of PHASES) {
    collect({ type: 'minor' }); // the young garbage of what came before is not this phase's
    await ask(phase);
    ids = await run(scim, side, phase, ids);
    collect({ type: 'minor' }); // the young garbage this phase made is
    await ask(`${phase} done`);
  }
  await scim.close();
  process.exit(0);
}

// The script of `ref` with today's harness: WORKTREE is this checkout.
function checkout(ref: string, work: string): string {
  const root = new URL('../../', import.meta.url).pathname;
  if (ref === 'WORKTREE') return root;
  const dir = join(work, ref.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive "${ref}" src | tar -x -C "${dir}"`]);
  cpSync(join(root, 'bench/bulk'), join(dir, 'bench/bulk'), { recursive: true });
  cpSync(join(root, 'bench/callgrind-count.ts'), join(dir, 'bench/callgrind-count.ts'));
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  cpSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** A phase's instructions, and those of them V8's optimising compiler (TurboFan) spent. */
interface Count {
  total: number;
  compile: number;
}

// The instructions spent in V8's optimising compiler in one dump: what `Compiler::CompileOptimized`
// and its OSR variant cost, callees included, as callgrind_annotate adds them up.
function compileCost(file: string): number {
  const { stdout } = spawnSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  let sum = 0;
  for (const line of stdout.split('\n')) {
    const m = /^\s*([\d,]+) .*v8::internal::Compiler::CompileOptimized(?:OSR)?\(/.exec(line);
    if (m) sum += Number(m[1]?.replaceAll(',', ''));
  }
  return sum;
}

async function measure(root: string, side: Side): Promise<Record<Phase, Count>> {
  const folder = mkdtempSync(join(tmpdir(), `scimkit-bulk-instructions-${side}-`));
  const proc: ChildProcess = spawnUnderCallgrind(
    folder,
    join(root, 'bench/bulk/instructions.ts'),
    ['--n', String(N), '--warmup', String(WARMUP), '--child', side],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], cwd: root },
    ['--expose-gc', '--predictable-gc-schedule', '--initial-old-space-size=512'],
    ['--instr-atstart=no'],
  );
  const counts: Partial<Record<Phase, Count>> = {};
  await new Promise<void>((resolve, reject) => {
    proc.on('message', (message) => {
      if (message === 'count') {
        spawnSync('callgrind_control', ['-i', 'on', String(proc.pid)], { stdio: 'ignore' });
        proc.send('go');
        return;
      }
      const total = callgrindCount(proc.pid as number, folder);
      const done = /^(\w+) done$/.exec(String(message))?.[1] as Phase | undefined;
      // Dumps are numbered from 1: a phase's start, then its end.
      const dump = join(folder, `callgrind.${proc.pid}.${2 * PHASES.indexOf(done as Phase) + 2}`);
      if (done !== undefined) counts[done] = { total, compile: compileCost(dump) };
      proc.send('go');
    });
    proc.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${side} exited ${code}`)),
    );
  });
  if (args.keep) console.log(`${side}: callgrind dumps kept in ${folder}`);
  else rmSync(folder, { recursive: true, force: true });
  return counts as Record<Phase, Count>;
}

if (args.child === 'one' || args.child === 'bulk') await child(args.child);
else {
  const work = mkdtempSync(join(tmpdir(), 'scimkit-bulk-refs-'));
  const refs = args.refs.split(',');
  const results = await Promise.all(
    refs.map(async (ref) => {
      const root = checkout(ref, work);
      return Promise.all([measure(root, 'one'), measure(root, 'bulk')]);
    }),
  );
  rmSync(work, { recursive: true, force: true });
  console.log(
    `valgrind callgrind, node ${process.version}, N = ${N}, warm-up ${WARMUP} rounds, instructions per operation`,
  );
  console.log(
    '| code | phase | one by one (TurboFan) | one /Bulk (TurboFan) | ratio | ratio without TurboFan |',
  );
  console.log('|---|---|---:|---:|---:|---:|');
  const k = (n: number) => Math.round(n / N).toLocaleString('en');
  for (const [r, [one, bulk]] of results.entries()) {
    for (const phase of PHASES) {
      const o = one[phase];
      const b = bulk[phase];
      console.log(
        `| ${refs[r]} | ${N} ${LABEL[phase]} | ${k(o.total)} (${k(o.compile)}) | ${k(b.total)} (${k(b.compile)}) | ` +
          `${(b.total / o.total).toFixed(3)}× | ${((b.total - b.compile) / (o.total - o.compile)).toFixed(3)}× |`,
      );
    }
  }
}
