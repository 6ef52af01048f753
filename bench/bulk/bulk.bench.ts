/**
 * Compares one `/Bulk` request of N operations with the same N requests sent one by one, in
 * process (`scim.handle`, memory store), side by side in one run: N creates, then N PATCHes of
 * those users. Each round uses a fresh service, so both sides write into an empty store.
 * Bounded: N = 1,000 operations, 5 rounds per side (alternating), at most 60 s in all.
 *
 * Run: `node --import tsx bench/bulk/bulk.bench.ts`
 */
import os from 'node:os';
import { BULK, patchBody, send, service, userBody } from './workload.js';

const N = 1000;
const ROUNDS = 5;
const DEADLINE = Date.now() + 60_000;

async function oneByOne(): Promise<[number, number]> {
  const scim = service();
  let start = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    const r = await send(scim, 'POST', '/Users', userBody(i));
    ids.push((JSON.parse(r.body as string) as { id: string }).id);
  }
  const create = performance.now() - start;
  start = performance.now();
  for (const id of ids) await send(scim, 'PATCH', `/Users/${id}`, patchBody);
  const patch = performance.now() - start;
  await scim.close();
  return [create, patch];
}

async function inBulk(): Promise<[number, number]> {
  const scim = service();
  let start = performance.now();
  const created = await send(scim, 'POST', '/Bulk', {
    schemas: [BULK],
    Operations: Array.from({ length: N }, (_, i) => ({
      method: 'POST',
      path: '/Users',
      bulkId: `b${i}`,
      data: userBody(i),
    })),
  });
  const create = performance.now() - start;
  const ops = (JSON.parse(created.body as string) as { Operations: { location: string }[] })
    .Operations;
  start = performance.now();
  await send(scim, 'POST', '/Bulk', {
    schemas: [BULK],
    Operations: ops.map((o) => ({
      method: 'PATCH',
      path: `/Users/${o.location.split('/').pop()}`,
      data: patchBody,
    })),
  });
  const patch = performance.now() - start;
  await scim.close();
  return [create, patch];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const single: [number, number][] = [];
const bulk: [number, number][] = [];
await oneByOne(); // warm-up
await inBulk();
for (let round = 0; round < ROUNDS && Date.now() < DEADLINE; round++) {
  single.push(await oneByOne());
  bulk.push(await inBulk());
}
console.log(
  `node ${process.version}, ${os.cpus()[0]?.model}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const [i, what] of ['creates', 'PATCHes'].entries()) {
  const s = median(single.map((r) => r[i] as number));
  const b = median(bulk.map((r) => r[i] as number));
  console.log(
    `${N} ${what}: one by one ${s.toFixed(0)} ms, one /Bulk ${b.toFixed(0)} ms, ratio ${(b / s).toFixed(2)}× (median of ${single.length})`,
  );
}
