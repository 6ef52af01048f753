// Formats the HTTP benchmark's medians and writes the latest run into bench/http/RESULTS.md,
// between two markers, so the hand-written notes around it (before/after, analysis) survive a
// re-run.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ServerName } from './operations.js';

/** Every round of one operation: req/s and the server's CPU µs per request, per server. */
export interface Row {
  readonly operation: string;
  readonly rps: Partial<Record<ServerName, readonly number[]>>;
  readonly cpu: Partial<Record<ServerName, readonly number[]>>;
}

/** How the run was made. */
export interface RunSettings {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
  readonly users: number;
  /** The command line as typed, for the record. */
  readonly command: string;
}

type Median = (xs: readonly number[]) => number;

const START = '<!-- latest-run:start -->';
const END = '<!-- latest-run:end -->';
const FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

function table(rows: readonly Row[], variant: ServerName, median: Median): string {
  const m = (xs: readonly number[] | undefined) => (xs?.length ? median(xs) : NaN);
  const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%${ratio >= 0.9 ? '' : ' ✗'}`;
  const each = (xs: readonly number[] | undefined) =>
    (xs ?? []).map((x) => x.toFixed(0)).join(' / ');
  const lines = [
    `| operation | hand-written req/s | ${variant} req/s | **req/s ratio** | hand-written CPU µs/req | ${variant} CPU µs/req | **CPU ratio** (hand-written ÷ ${variant}) | req/s per round (hand-written; ${variant}) |`,
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const [b, s] = [m(row.rps.baseline), m(row.rps[variant])];
    const [bc, sc] = [m(row.cpu.baseline), m(row.cpu[variant])];
    lines.push(
      `| ${row.operation} | ${b.toFixed(0)} | ${s.toFixed(0)} | ${pct(s / b)} | ${bc.toFixed(0)} | ${sc.toFixed(0)} | ${pct(bc / sc)} | ${each(row.rps.baseline)}; ${each(row.rps[variant])} |`,
    );
  }
  return lines.join('\n');
}

function variantsOf(rows: readonly Row[]): ServerName[] {
  const names = new Set(rows.flatMap((row) => Object.keys(row.rps) as ServerName[]));
  return [...names].filter((name) => name !== 'baseline');
}

/** Renders one Markdown table per scimkit server, each next to the hand-written one. */
export function summary(rows: readonly Row[], median: Median): string {
  return variantsOf(rows)
    .map((variant) => table(rows, variant, median))
    .join('\n\n');
}

/** Replaces the latest-run section of RESULTS.md (creating the file if needed); returns its path. */
export async function writeResults(
  rows: readonly Row[],
  settings: RunSettings,
  median: Median,
): Promise<string> {
  const section = [
    START,
    `Run ${new Date().toISOString()} on ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}.`,
    `Command: \`${settings.command}\` — ${settings.users} users preloaded per server, ${settings.connections} connections,`,
    `${settings.seconds} s per operation per server per round, ${settings.rounds} rounds, medians.`,
    '',
    summary(rows, median),
    END,
  ].join('\n');
  let text: string;
  try {
    text = await readFile(FILE, 'utf8');
  } catch {
    text = `# HTTP benchmark\n\n## Latest run\n\n${START}\n${END}\n`;
  }
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  const next =
    from >= 0 && to > from
      ? text.slice(0, from) + section + text.slice(to + END.length)
      : `${text}\n${section}\n`;
  // Formatted as `npm run lint` expects, so a fresh run leaves the tree clean.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(FILE)) ?? {};
  await writeFile(FILE, await prettier.format(next, { ...options, filepath: FILE }));
  return FILE;
}
