/**
 * Compares the recursive-descent `parseFilter` with the parser it replaced (kept in
 * test/filter/oracle/ as the tests' oracle), interleaved in one process: several rounds, each
 * measuring both back to back, then the median over rounds of each rate and of the ratio.
 *
 * Run: `node --import tsx bench/filter/parser-ab.bench.ts`
 */
import { Bench } from 'tinybench';
import { parseFilter } from '../../src/filter/index.js';
import { legacyParseFilter } from '../../test/filter/oracle/legacy-parse-filter.js';
import { fmt, machineLine, median, medianOf } from './stats.js';

const FILTERS: [string, string, boolean][] = [
  ['simple', 'userName eq "bjensen@example.com"', false],
  [
    'complex',
    'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org") and not (title pr) and emails[type eq "work" and value co "example"]',
    false,
  ],
  ['escaped string', 'displayName eq "Jos\\u00e9 \\"Pepe\\" Garc\\u00eda"', false],
  ['entra value path', 'emails[type eq "work"].value eq "ada@example.org"', false],
  ['unquoted', 'meta.created gt 2015-10-10T14:38:21 and userName sw O', true],
];

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const samples = new Map<string, { ours: number[]; legacy: number[]; ratio: number[] }>();
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: 300, warmupTime: 100 });
  for (const [label, text, unquotedValues] of FILTERS) {
    const options = { unquotedValues };
    bench.add(`${label} · new`, () => parseFilter(text, options));
    bench.add(`${label} · legacy`, () => legacyParseFilter(text, options));
  }
  await bench.run();
  for (const [label] of FILTERS) {
    const ours = medianOf(bench, `${label} · new`);
    const legacy = medianOf(bench, `${label} · legacy`);
    const entry = samples.get(label) ?? { ours: [], legacy: [], ratio: [] };
    entry.ours.push(ours);
    entry.legacy.push(legacy);
    entry.ratio.push(ours / legacy);
    samples.set(label, entry);
  }
}

console.log(`\n${machineLine()} · ${ROUNDS} rounds\n`);
console.log('| filter | new ops/s | legacy ops/s | new / legacy (median of rounds) |');
console.log('|---|---:|---:|---:|');
for (const [name, s] of samples) {
  console.log(
    `| ${name} | ${fmt(median(s.ours))} | ${fmt(median(s.legacy))} | ${median(s.ratio).toFixed(2)} |`,
  );
}
