import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Asks callgrind, running process `pid` with `--callgrind-out-file=<folder>/callgrind.%p`, for a
 * dump, and returns the instructions counted since the dump before it. callgrind writes one file
 * per dump (callgrind.<pid>.<n>); the newest holds those counts.
 */
export function callgrindCount(pid: number, folder: string): number {
  spawnSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore' });
  const files = readdirSync(folder)
    .map((f) => ({ f, n: Number(/^callgrind\.\d+\.(\d+)$/.exec(f)?.[1] ?? 0) }))
    .sort((a, b) => b.n - a.n);
  const text = readFileSync(join(folder, files[0]?.f ?? ''), 'utf8');
  return Number(/^(?:totals|summary): (\d+)/m.exec(text)?.[1] ?? NaN);
}

/**
 * Starts `node --import tsx <script> ...args` under callgrind (single-threaded V8, no
 * per-instruction dump), writing its counts to `<folder>/callgrind.<pid>[.n]` for
 * {@link callgrindCount}. `nodeFlags` go to node before the script (`--expose-gc`, …),
 * `toolFlags` to callgrind (`--instr-atstart=no`, …).
 */
export function spawnUnderCallgrind(
  folder: string,
  script: string,
  args: readonly string[],
  options: SpawnOptions,
  nodeFlags: readonly string[] = [],
  toolFlags: readonly string[] = [],
): ChildProcess {
  return spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${folder}/callgrind.%p`,
      '--dump-instr=no',
      ...toolFlags,
      'node',
      '--single-threaded',
      ...nodeFlags,
      '--import',
      'tsx',
      script,
      ...args,
    ],
    options,
  );
}
