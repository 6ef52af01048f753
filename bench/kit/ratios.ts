// The ratios issue 16 sets targets on, from the per-repeat reports of one kit suite run: each a
// median over repeats of (server req/s ÷ reference req/s in the same repeat), as the kit's
// run-suite.mjs and pool.mjs take them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One scenario of one http-bench report. */
interface ScenarioReport {
  readonly scenario: string;
  readonly rps: number;
  readonly non2xx: number;
  readonly socketErrors: number;
  readonly check: string;
}

/** One server's http-bench report in one repeat. */
interface Run {
  readonly server: string;
  readonly repeat: number;
  readonly scenarios: readonly ScenarioReport[];
}

/** The operations, as the kit names its scenarios. */
export const OPERATIONS = [
  'filter',
  'get',
  'put',
  'patch',
  'create',
  'list_first',
  'list_deep',
] as const;
const PAGES: readonly string[] = ['list_first', 'list_deep'];

/** One target: `server ÷ ref` per operation, at least `single` (one user) or `pages` (lists). */
interface Target {
  readonly title: string;
  readonly server: string;
  readonly ref: string;
  readonly single: number | null;
  readonly pages: number | null;
}

const TARGETS: readonly Target[] = [
  {
    title: 'node adapter ÷ raw-store',
    server: 'scimkit-node',
    ref: 'raw-store',
    single: 0.9,
    pages: 1,
  },
  {
    title: 'Hono adapter ÷ Hono floor',
    server: 'scimkit-hono',
    ref: 'hono4',
    single: 0.75,
    pages: 0.75,
  },
  {
    title: 'Fastify adapter ÷ Fastify floor',
    server: 'scimkit-fastify',
    ref: 'fastify5',
    single: 0.75,
    pages: 0.75,
  },
  {
    title: 'Express adapter ÷ Express floor',
    server: 'scimkit-express',
    ref: 'express5',
    single: 0.75,
    pages: 0.75,
  },
  { title: 'node adapter ÷ SCIMMY', server: 'scimkit-node', ref: 'scimmy', single: 20, pages: 100 },
  // No target: the fetch handler on @hono/node-server's bridge, next to Hono on the same bridge.
  {
    title: 'fetch handler ÷ Hono floor (no target)',
    server: 'scimkit-fetch',
    ref: 'hono4',
    single: null,
    pages: null,
  },
  {
    title: 'Express adapter ÷ SCIMMY (no target; SCIMMY runs on Express 4)',
    server: 'scimkit-express',
    ref: 'scimmy',
    single: null,
    pages: null,
  },
  {
    title: 'node adapter ÷ raw (no target)',
    server: 'scimkit-node',
    ref: 'raw',
    single: null,
    pages: null,
  },
];

/** Reads every `<server>-r<repeat>.json` report of a suite run. */
function readRuns(suiteDir: string): Run[] {
  const runsDir = join(suiteDir, 'runs');
  return readdirSync(runsDir).flatMap((file) => {
    const match = /^(.*)-r(\d+)\.json$/.exec(file);
    if (match === null) return [];
    const report = JSON.parse(readFileSync(join(runsDir, file), 'utf8')) as {
      scenarios: ScenarioReport[];
    };
    return [{ server: match[1]!, repeat: Number(match[2]), scenarios: report.scenarios }];
  });
}

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The validity of a run, the ratio tables and the targets, as markdown and data. */
export function ratios(suiteDir: string): { markdown: string; data: unknown; valid: boolean } {
  const runs = readRuns(suiteDir);
  const servers = [...new Set(runs.map((r) => r.server))];
  // A repeat stopped part-way (the time limit) is left out: ratios pair servers within a repeat.
  const started = [...new Set(runs.map((r) => r.repeat))].sort((a, b) => a - b);
  const complete = (r: number) =>
    servers.every((s) => runs.some((x) => x.server === s && x.repeat === r));
  const repeats = started.filter(complete);
  const dropped = started.filter((r) => !complete(r));
  const rps = (server: string, repeat: number, op: string) =>
    runs
      .find((r) => r.server === server && r.repeat === repeat)
      ?.scenarios.find((s) => s.scenario === op)?.rps;

  // A run counts only with zero errors and every sanity check ok (fixed-body servers skip them).
  const problems: string[] = [];
  for (const run of runs) {
    for (const s of run.scenarios) {
      if (s.non2xx + s.socketErrors > 0)
        problems.push(
          `${run.server} r${run.repeat} ${s.scenario}: ${s.non2xx} non-2xx, ${s.socketErrors} socket errors`,
        );
      if (s.check !== 'ok' && s.check !== 'skipped')
        problems.push(`${run.server} r${run.repeat} ${s.scenario}: check ${s.check}`);
    }
  }
  if (repeats.length === 0) problems.push('no repeat has a report from every server');

  const lines: string[] = [];
  const data: Record<
    string,
    Record<
      string,
      {
        ratio: number | null;
        min: number | null;
        max: number | null;
        target: number | null;
        met: boolean | null;
      }
    >
  > = {};
  const pct = (x: number | null) =>
    x === null ? '-' : x >= 2 ? `${x.toFixed(1)}x` : `${Math.round(x * 100)}%`;
  for (const target of TARGETS) {
    if (!servers.includes(target.server) || !servers.includes(target.ref)) continue;
    const row: (typeof data)[string] = {};
    for (const op of OPERATIONS) {
      const each = repeats.flatMap((r) => {
        const a = rps(target.server, r, op);
        const b = rps(target.ref, r, op);
        return a !== undefined && b !== undefined && b > 0 ? [a / b] : [];
      });
      const goal = PAGES.includes(op) ? target.pages : target.single;
      const ratio = median(each);
      row[op] = {
        ratio,
        min: each.length > 0 ? Math.min(...each) : null,
        max: each.length > 0 ? Math.max(...each) : null,
        target: goal,
        met: goal === null || ratio === null ? null : ratio >= goal,
      };
    }
    data[target.title] = row;
    const cells = OPERATIONS.map((op) => {
      const c = row[op]!;
      const verdict = c.met === null ? '' : c.met ? ' **met**' : ' not met';
      return `${pct(c.ratio)} (${pct(c.min)}–${pct(c.max)})${verdict}`;
    });
    const goals =
      target.single === null
        ? 'none'
        : `≥ ${pct(target.single)} one user, ≥ ${pct(target.pages)} pages`;
    lines.push(`| ${target.title} | ${goals} | ${cells.join(' | ')} |`);
  }
  const markdown = [
    `Median over ${repeats.length} repeats of the per-repeat ratio (min–max in brackets).` +
      (dropped.length > 0
        ? ` Repeat ${dropped.join(', ')} was stopped part-way and is left out.`
        : ''),
    '',
    `| ratio | target | ${OPERATIONS.join(' | ')} |`,
    `| --- | --- | ${OPERATIONS.map(() => '---:').join(' | ')} |`,
    ...lines,
    '',
    problems.length === 0
      ? 'Run health: zero non-2xx and socket errors, every sanity check ok: **the run counts**.'
      : `Run health: **the run does not count**: ${problems.join('; ')}.`,
    '',
  ].join('\n');
  return {
    markdown,
    data: { repeats: repeats.length, droppedRepeats: dropped, servers, ratios: data, problems },
    valid: problems.length === 0,
  };
}
