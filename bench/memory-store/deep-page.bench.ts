/**
 * Times the id order's part of a page (`SortedIds.slice` of 100 ids) at the start and at the
 * end of 10,000 and of 1,000,000 ids, in alternating rounds: what a deep page costs beyond a
 * first one, without the rest of the store. Each figure is the median over rounds of the time
 * per slice.
 *
 * Run: `node --import tsx bench/memory-store/deep-page.bench.ts`
 */
import os from 'node:os';
import { SortedIds } from '../../src/stores/memory/sorted-ids.js';

const SIZES = [10_000, 1_000_000];
const BATCH = 2_000;
const ROUNDS = 30;

const orders = SIZES.map((size) => {
  const ids = new SortedIds();
  for (let i = 0; i < size; i++) ids.insert(`id-${String(i).padStart(8, '0')}`);
  return { size, ids };
});

function time(ids: SortedIds, offset: number): number {
  const started = performance.now();
  for (let i = 0; i < BATCH; i++) if (ids.slice(offset, 100).length !== 100) throw new Error();
  return ((performance.now() - started) * 1000) / BATCH;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const cases = orders.flatMap(({ size, ids }) => [
  {
    name: `first page, ${size.toLocaleString('en-US')} ids`,
    ids,
    offset: 0,
    times: [] as number[],
  },
  {
    name: `last page, ${size.toLocaleString('en-US')} ids`,
    ids,
    offset: size - 100,
    times: [] as number[],
  },
]);
for (let round = 0; round < ROUNDS; round++)
  for (const c of cases) c.times.push(time(c.ids, c.offset));

console.log(`Node ${process.version} · load average ${os.loadavg()[0]?.toFixed(1)}\n`);
console.log('| slice of 100 ids | median µs |');
console.log('|---|---:|');
for (const c of cases) console.log(`| ${c.name} | ${median(c.times).toFixed(2)} |`);
