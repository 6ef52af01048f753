// Summarises a `perf record -e cpu-clock -g` of a kit server run with `node --perf-basic-prof`
// (bench/kit/profile.ts --perf). V8's own CPU profiler charges time spent in the kernel and in
// V8's builtins and runtime to whichever JavaScript frame is on top, which put a third of a
// PUT in `writev`; perf samples the whole process, kernel included, so it tells the kernel's
// share, the garbage collector's, V8's builtins and runtime and the server's own code apart.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What each sample's leaf frame is, by the name perf gives it. First match wins. */
const CATEGORIES: readonly (readonly [string, RegExp])[] = [
  ['kernel', /^\[k\] /],
  ['JS: node internals', /^JS:.* node:/],
  ['JS: other', /^JS:|^RegExp:/],
  ['V8: WeakMap and WeakSet', /Ephemeron|WeakMap|WeakCollection|CreateIdentityHash/],
  [
    'garbage collector',
    /Scaveng|Heap::|MarkCompact|Sweeper|Marking|Evacuat|GCTracer|MemoryAllocator|PagedSpace|NewSpace|SemiSpace|RememberedSet|SlotSet/,
  ],
  ['builtins: promises, microtasks', /^Builtins_.*(Promise|Microtask|Async|Await)/],
  ['builtins: property access (ICs)', /^Builtins_.*IC(_|$|Trampoline)/],
  ['builtins: other', /^Builtins_/],
  ['V8: JSON', /Json/],
  ['V8: runtime and other', /v8::|Runtime_|^v8_/],
  ['node and libuv (C++)', /node::|llhttp|uv_|napi_|ossl|EVP_|sha256|OPENSSL|SHA256/],
  ['libc', /malloc|free|memcpy|memmove|memset|memchr|_int_|__GI|^read$|^write|epoll|syscall/],
];

/** One sampled stack, leaf first: each frame's symbol as perf names it. */
type Stack = readonly string[];

/** The summary of one recording, as markdown. */
export function summarisePerf(options: {
  /** The `perf.data` file. */
  readonly data: string;
  /** The server file: its own JavaScript frames (and those of scimkit's `dist`) are "own". */
  readonly serverFile: string;
  /** The repository root (for `dist` and its source maps). */
  readonly root: string;
  /** Requests the server answered while it was recorded (seeding included). */
  readonly requests: number;
  /** Sampling frequency given to `perf record -F`. */
  readonly frequency: number;
  /** Rows per table. */
  readonly top: number;
}): string {
  const stacks = readStacks(options.data);
  const perRequest = (samples: number) =>
    ((samples / options.frequency / options.requests) * 1e6).toFixed(2);
  const own = ownFrames(options.root, options.serverFile);
  const categories = new Map<string, number>();
  const charged = new Map<string, Map<string, number>>();
  for (const stack of stacks) {
    const leaf = stack[0] ?? '(none)';
    add(categories, categoryOf(leaf));
    const mine = stack.map(own).find((name) => name !== undefined) ?? '(no own frame)';
    let leaves = charged.get(mine);
    if (leaves === undefined) charged.set(mine, (leaves = new Map()));
    add(leaves, shorten(leaf));
  }
  const total = stacks.length;
  const lines = [
    `${total} samples at ${options.frequency} Hz over ${options.requests} requests: ${perRequest(total)} µs of CPU per request (perf's own overhead included).`,
    '',
    '| what the sampled frame is | share | µs per request |',
    '| --- | ---: | ---: |',
    ...sorted(categories).map(
      ([name, n]) => `| ${name} | ${((100 * n) / total).toFixed(1)}% | ${perRequest(n)} |`,
    ),
    '',
    '| nearest own frame (and the leaves charged to it) | µs per request |',
    '| --- | ---: |',
  ];
  const byOwn = [...charged].map(([name, leaves]) => [name, leaves, sum(leaves)] as const);
  byOwn.sort((a, b) => b[2] - a[2]);
  for (const [name, leaves, n] of byOwn.slice(0, options.top)) {
    lines.push(`| **\`${name}\`** | **${perRequest(n)}** |`);
    for (const [leaf, m] of sorted(leaves).slice(0, 4))
      lines.push(`| &nbsp;&nbsp; \`${leaf.replace(/\|/g, '\\|')}\` | ${perRequest(m)} |`);
  }
  return lines.join('\n');
}

// `perf script`'s stacks: one block per sample, one frame per line (address, symbol).
function readStacks(data: string): Stack[] {
  const run = spawnSync('perf', ['script', '-i', data, '-F', 'ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 2 ** 31 - 1,
  });
  if (run.status !== 0) throw new Error(`perf script failed: ${run.stderr}`);
  return run.stdout
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .map(frameOf)
        .filter((frame) => frame !== ''),
    )
    .filter((stack) => stack.length > 0);
}

/** What kind of code a sampled frame (as {@link frameOf} names it) is, by its symbol. */
export function categoryOf(frame: string): string {
  return CATEGORIES.find(([, test]) => test.test(frame))?.[0] ?? 'other';
}

/**
 * Names the frame of one line of `perf script -F ip,sym,dso`: `ffffffff81… pvm_irq_enable
 * ([kernel.kallsyms])` → `[k] pvm_irq_enable`; a frame elsewhere keeps its symbol alone.
 */
export function frameOf(line: string): string {
  const match = /^[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)$/.exec(line.trim());
  if (match === null) return line.trim().replace(/^[0-9a-f]+\s+/, '');
  const [, symbol = '', dso = ''] = match;
  return dso.startsWith('[kernel') ? `[k] ${symbol}` : symbol;
}

// Names a frame of the server's own code (`src/…:line function` through dist's source maps, or
// the server file's function), or undefined for any other frame.
function ownFrames(root: string, serverFile: string): (frame: string) => string | undefined {
  const dist = `file://${join(root, 'dist')}/`;
  const server = `file://${serverFile}`;
  const sourceOf = distSources(root);
  const named = new Map<string, string | undefined>();
  return (frame) => {
    if (named.has(frame)) return named.get(frame);
    // `JS:*name file:///…/file.js:line:column` (`*` optimised, `~` interpreted, `^` baseline).
    const match = /^JS:[*~^+]?(\S*) (file:\/\/\S+):(\d+):(\d+)$/.exec(frame);
    let name: string | undefined;
    if (match !== null) {
      const [, fn, url = '', line = '0', column = '0'] = match;
      const label = fn === '' || fn === undefined ? '(anonymous)' : fn;
      if (url.startsWith(dist))
        name = `${label} ${sourceOf(url, Number(line) - 1, Number(column) - 1)}`;
      else if (url === server) name = `${label} ${relative(root, fileURLToPath(url))}:${line}`;
    }
    named.set(frame, name);
    return name;
  };
}

/**
 * Places a position of a file of scimkit's built `dist` in the source it was built from:
 * `src/…/file.ts:line` through the file's source map (read once per file), or
 * `dist/…:line` when there is none. `line` and `column` count from 0, as V8's profiles do.
 */
export function distSources(root: string): (url: string, line: number, column: number) => string {
  const maps = new Map<string, SourceMap | null>();
  return (url, line, column) => {
    const file = fileURLToPath(url);
    if (!maps.has(file)) {
      try {
        maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
      } catch {
        maps.set(file, null);
      }
    }
    const entry = maps.get(file)?.findEntry(line, column) as
      { originalSource?: string; originalLine?: number } | undefined;
    if (entry?.originalSource === undefined) return `${relative(root, file)}:${line + 1}`;
    const source = entry.originalSource.startsWith('file:')
      ? fileURLToPath(entry.originalSource)
      : join(dirname(file), entry.originalSource);
    return `${relative(root, source)}:${(entry.originalLine ?? 0) + 1}`;
  };
}

function shorten(symbol: string): string {
  return symbol
    .replace(/^JS:[*~^+]?/, '')
    .replace(/file:\/\/\S*\/(dist|node_modules)\//, '$1/')
    .replace(/<.*>/, '<…>')
    .slice(0, 100);
}

function add(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function sum(counts: Map<string, number>): number {
  let n = 0;
  for (const v of counts.values()) n += v;
  return n;
}

function sorted(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1]);
}
