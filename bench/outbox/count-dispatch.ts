// What delivering one welcome email costs the outbox, counted: instructions per message of
// `OutboxDispatcher.drain()` on the memory store, with a Mailer that sends nothing, for two or
// more versions of the library (a git ref, or WORKTREE) side by side. Only the drain is counted
// (callgrind dumps before and after it), so recording the users and messages, start-up and the
// warm-up drain stay out; a create over HTTP pays this after its response. Needs `valgrind`.
//
//   node --import tsx bench/outbox/count-dispatch.ts --refs main,WORKTREE [--n 3000]
//     [--warmup 3000] [--rounds 2]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { callgrindCount, spawnUnderCallgrind } from '../callgrind-count.js';

const { values: args } = parseArgs({
  options: {
    refs: { type: 'string', default: 'main,WORKTREE' },
    n: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '2' },
  },
});
const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'scimkit-dispatch-'));
const target = join(root, 'bench/outbox/dispatch-target.ts');

// The library of `ref` in a folder of its own, beside the repository's node_modules.
function checkout(ref: string, index: number): string {
  if (ref === 'WORKTREE') return root;
  const dir = join(work, String(index));
  mkdirSync(dir);
  execFileSync('sh', ['-c', `git -C "${root}" archive "${ref}" src | tar -x -C "${dir}"`]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function perMessage(dir: string): Promise<number> {
  const folder = mkdtempSync(join(work, 'cg-'));
  const child = spawnUnderCallgrind(folder, target, [dir, args.warmup, args.n], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) {
        out = out.replace('ready\n', '');
        callgrindCount(child.pid as number, folder);
        child.stdin?.write('go\n');
      } else if (/done (\d+)\n/.test(out)) {
        const sent = Number(/done (\d+)\n/.exec(out)?.[1]);
        const count = callgrindCount(child.pid as number, folder);
        child.stdin?.end('bye\n');
        child.once('exit', (code) => {
          if (code !== 0) reject(new Error(`exit ${code}`));
          else if (sent !== Number(args.n)) reject(new Error(`sent ${sent} of ${args.n}`));
          else resolve(count / sent);
        });
      }
    });
  });
}

const refs = args.refs.split(',');
const dirs = refs.map(checkout);
const counts = refs.map((): number[] => []);
for (let round = 0; round < Number(args.rounds); round++) {
  const order = refs.map((_, i) => i);
  if (round % 2 === 1) order.reverse();
  for (const i of order) {
    counts[i]?.push(await perMessage(dirs[i] as string));
    console.log(`  ${refs[i]}: ${Math.round(counts[i]?.at(-1) ?? NaN)} instructions/message`);
  }
}
console.log(`\n| delivering one message | ${refs.join(' | ')} |`);
console.log(`| --- | ${refs.map(() => '---:').join(' | ')} |`);
console.log(
  `| instructions (each round) | ${counts.map((c) => c.map((x) => `${(x / 1000).toFixed(1)}k`).join(' / ')).join(' | ')} |`,
);
rmSync(work, { recursive: true, force: true });
