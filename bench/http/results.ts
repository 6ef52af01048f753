// Writes the latest run of the HTTP benchmark into bench/http/RESULTS.md, between two markers,
// so the hand-written notes around it (before/after, analysis) survive a re-run.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The req/s of every round of one operation, per server. */
export interface Row {
  readonly operation: string;
  readonly baseline: readonly number[];
  readonly scimkit: readonly number[];
  /** The server's CPU time per request, in µs, of every round. */
  readonly baselineCpu: readonly number[];
  readonly scimkitCpu: readonly number[];
}

/** How the run was made. */
export interface RunSettings {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
  readonly users: number;
  readonly median: (xs: readonly number[]) => number;
}

const START = '<!-- latest-run:start -->';
const END = '<!-- latest-run:end -->';
const FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

function table(rows: readonly Row[], settings: RunSettings): string {
  const m = (xs: readonly number[]) => (xs.length ? settings.median(xs) : NaN);
  const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%${ratio >= 0.9 ? '' : ' ✗'}`;
  const rounds = (xs: readonly number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
  const lines = [
    '| operation | hand-written req/s | scimkit req/s | **scimkit / hand-written** | hand-written CPU µs/req | scimkit CPU µs/req | CPU ratio (hand-written / scimkit) | req/s per round (hand-written; scimkit) |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const ratio = m(row.scimkit) / m(row.baseline);
    const cpuRatio = m(row.baselineCpu) / m(row.scimkitCpu);
    lines.push(
      `| ${row.operation} | ${m(row.baseline).toFixed(0)} | ${m(row.scimkit).toFixed(0)} | ${pct(ratio)} | ` +
        `${m(row.baselineCpu).toFixed(0)} | ${m(row.scimkitCpu).toFixed(0)} | ${pct(cpuRatio)} | ${rounds(row.baseline)}; ${rounds(row.scimkit)} |`,
    );
  }
  return lines.join('\n');
}

/** Replaces the latest-run section of RESULTS.md (creating the file if needed); returns its path. */
export async function writeResults(rows: readonly Row[], settings: RunSettings): Promise<string> {
  const section = [
    START,
    `Run ${new Date().toISOString()} on ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}.`,
    `Command: \`npm run bench:http\` — ${settings.users} users preloaded per server, ${settings.connections} connections,`,
    `${settings.seconds} s per operation per server per round, ${settings.rounds} rounds, medians.`,
    '',
    table(rows, settings),
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
  await writeFile(FILE, next);
  return FILE;
}
