/**
 * Compares scimkit's filter parser and evaluator with scim2-parse-filter (`parse`, `filter`)
 * in one run, on a simple and a complex filter.
 *
 * Run: `node --import tsx bench/filter/filter.bench.ts`
 */
import { filter as theirFilter, parse as theirParse } from 'scim2-parse-filter';
import { Bench } from 'tinybench';
import { compileFilter, parseFilter } from '../../src/filter/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { fmt, machineLine, median, medianOf } from './stats.js';

const schemas = userResourceType();

const FILTERS = {
  simple: 'userName eq "bjensen@example.com"',
  complex:
    'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org") and not (title pr) and emails[type eq "work" and value co "example"]',
};

/** 100 users, one of them bjensen, the rest a mix of what the complex filter looks at. */
const users = Array.from({ length: 100 }, (_, i) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: `id-${i}`,
  userName: i === 42 ? 'bjensen@example.com' : `user${i}@example.${i % 3 === 0 ? 'org' : 'com'}`,
  userType: i % 2 === 0 ? 'Employee' : 'Contractor',
  ...(i % 5 === 0 ? { title: 'Engineer' } : {}),
  active: i % 7 !== 0,
  emails: [
    {
      value: `user${i}@example.${i % 3 === 0 ? 'org' : 'com'}`,
      type: i % 4 === 0 ? 'home' : 'work',
    },
    { value: `u${i}@mail.test`, type: 'other' },
  ],
  meta: { created: '2024-01-01T00:00:00Z', lastModified: '2024-06-01T00:00:00Z' },
}));

interface Pair {
  name: string;
  ours: () => unknown;
  theirs: () => unknown;
}
const pairs: Pair[] = [];

for (const [label, text] of Object.entries(FILTERS)) {
  const ours = compileFilter(parseFilter(text), schemas);
  const theirs = theirFilter(theirParse(text));
  const oursCount = users.filter(ours).length;
  const theirsCount = users.filter(theirs).length;
  console.log(
    `${label}: scimkit matches ${oursCount} of 100 users, scim2-parse-filter ${theirsCount}`,
  );
  pairs.push({
    name: `parse ${label}`,
    ours: () => parseFilter(text),
    theirs: () => theirParse(text),
  });
  // One operation = testing all 100 users with a filter compiled beforehand.
  const countWith = (predicate: (u: (typeof users)[number]) => boolean) => () => {
    let n = 0;
    for (const u of users) if (predicate(u)) n++;
    return n;
  };
  pairs.push({
    name: `evaluate ${label} (100 users)`,
    ours: countWith(ours),
    theirs: countWith(theirs),
  });
}

// The machines these run on are shared and busy: several short rounds, each measuring both
// libraries back to back, then the median over rounds, keep a load swing from deciding a ratio.
const ROUNDS = 5;
const samples = new Map<string, { ours: number[]; theirs: number[]; ratio: number[] }>();
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: 400, warmupTime: 100 });
  for (const pair of pairs) {
    bench.add(`${pair.name} · scimkit`, pair.ours);
    bench.add(`${pair.name} · scim2-parse-filter`, pair.theirs);
  }
  await bench.run();
  if (round === 0) console.table(bench.table());
  for (const pair of pairs) {
    const ours = medianOf(bench, `${pair.name} · scimkit`);
    const theirs = medianOf(bench, `${pair.name} · scim2-parse-filter`);
    const entry = samples.get(pair.name) ?? { ours: [], theirs: [], ratio: [] };
    entry.ours.push(ours);
    entry.theirs.push(theirs);
    entry.ratio.push(ours / theirs);
    samples.set(pair.name, entry);
  }
}

console.log(`\n${machineLine()}\n`);
console.log('| benchmark | scimkit ops/s | scim2-parse-filter ops/s | ratio (median of rounds) |');
console.log('|---|---:|---:|---:|');
for (const [name, s] of samples) {
  console.log(
    `| ${name} | ${fmt(median(s.ours))} | ${fmt(median(s.theirs))} | ${median(s.ratio).toFixed(2)}x |`,
  );
}
