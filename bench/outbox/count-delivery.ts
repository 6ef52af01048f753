// What a delivered welcome email costs the outbox, counted rather than timed: instructions per
// message of `delivery-target.ts` (memory outbox and dispatcher only) for two or more versions
// of the library, under valgrind's callgrind, each count the difference of two runs with
// `--messages` A and B messages, so start-up and warm-up cancel out. The create path's HTTP
// and user store, which `bench/http/count-instructions.ts` counts too, move by a few percent
// from one process to the next; this count does not carry them.
//
//   node --import tsx bench/outbox/count-delivery.ts --refs main,WORKTREE [--rounds 2]
//     [--messages 2000,8000]
import { build } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    refs: { type: 'string', default: 'main,WORKTREE' },
    messages: { type: 'string', default: '2000,8000' },
    warmup: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '2' },
  },
});
const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'scimkit-outbox-'));
const [small, large] = args.messages.split(',').map(Number) as [number, number];

// The library of `ref` with today's target, bundled into one file.
async function bundle(ref: string, index: number): Promise<string> {
  const dir = join(work, String(index));
  mkdirSync(join(dir, 'bench/outbox'), { recursive: true });
  if (ref === 'WORKTREE') cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
  else execFileSync('sh', ['-c', `git -C "${root}" archive "${ref}" src | tar -x -C "${dir}"`]);
  const target = join(dir, 'bench/outbox/delivery-target.ts');
  copyFileSync(join(root, 'bench/outbox/delivery-target.ts'), target);
  const outfile = join(dir, 'delivery-target.mjs');
  await build({
    entryPoints: [target],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

function instructions(file: string, messages: number): Promise<number> {
  const out = join(work, `cg-${process.hrtime.bigint()}`);
  const argv = ['--tool=callgrind', `--callgrind-out-file=${out}`, '--dump-instr=no'];
  argv.push('node', '--single-threaded', file, args.warmup, String(messages));
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`valgrind exited ${code}: ${err.slice(-2000)}`));
      const text = readFileSync(out, 'utf8');
      rmSync(out);
      resolve(Number(/^(?:totals|summary): (\d+)/m.exec(text)?.[1] ?? NaN));
    });
  });
}

const refs = args.refs.split(',');
const files = await Promise.all(refs.map((ref, i) => bundle(ref, i)));
const counts = refs.map((): number[] => []);
for (let round = 0; round < Number(args.rounds); round++) {
  const order = refs.map((_, i) => i);
  if (round % 2 === 1) order.reverse();
  for (const i of order) {
    // The two runs side by side: one per core.
    const [a, b] = await Promise.all([small, large].map((n) => instructions(files[i]!, n)));
    counts[i]!.push((b! - a!) / (large - small));
    console.log(`  ${refs[i]}: ${Math.round(counts[i]!.at(-1)!)} instructions/message`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
console.log(`\n| per delivered message | ${refs.join(' | ')} |`);
console.log(`| --- | ${refs.map(() => '---:').join(' | ')} |`);
const cells = counts.map((c) => c.map((x) => `${(x / 1000).toFixed(1)}k`).join(' / '));
console.log(`| instructions | ${cells.join(' | ')} |`);
const first = median(counts[0]!);
console.log(
  `| ÷ ${refs[0]} | ${counts.map((c) => `${((median(c) / first) * 100).toFixed(1)}%`).join(' | ')} |`,
);
rmSync(work, { recursive: true, force: true });
