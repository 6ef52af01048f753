/**
 * Measures what a scimkit service on the memory store holds per user, for the users the shared
 * kit creates (as `bench/kit/servers/service.mjs` does: an email userName, active, a given and a
 * family name), created through the same path as the kit's preseed: `scim.handle` POSTs,
 * without HTTP, the welcome email "sent" by a mailer that sends nothing.
 *
 * Prints, after a full garbage collection, the heap used and the RSS, each ÷ users (the kit's
 * figure is RSS ÷ users), and what they grew by per user added. It also reads memory as the kit
 * does, right after seeding and before any forced collection, and splits that RSS into the V8
 * heap's spaces (used and committed), memory outside the heap, and the rest of the process.
 * With `--like-kit` the users are created as the kit's preseed creates them, one `await` after
 * another with no turn of the event loop in between. With `--snapshot FILE` it also writes a
 * heap snapshot, which `heap-by-constructor.ts` sums up per user.
 *
 * Run: `node --expose-gc --max-old-space-size=8192 --import tsx bench/memory-store/footprint.ts --users 100000`
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { kitService } from './kit-service.js';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    snapshot: { type: 'string' },
    'like-kit': { type: 'boolean', default: false },
    via: { type: 'string', default: 'handle' },
  },
});
const users = Number(args.users);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const kit = kitService();
const { scim } = kit;
// `--via store` adds the users straight to the store (no request, no welcome email): what the
// store itself keeps and leaves behind, apart from the request path.
const create = args.via === 'store' ? kit.add : kit.create;

// Lets the welcome subscriber deliver what it was woken for, then collects everything collectable.
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 200));
  gc?.();
  gc?.();
}

const MiB = 1024 * 1024;
await create(-1); // everything a first request builds (compiled types, caches) is in the baseline
await settle();
const before = process.memoryUsage();
const started = performance.now();
for (let i = 0; i < users; i++) {
  await create(i);
  // The welcome subscriber runs between requests, as it does in a server.
  if (!args['like-kit'] && i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
}
const seconds = (performance.now() - started) / 1000;
// What the kit reads: RSS right after seeding, before any forced collection.
const rightAfter = process.memoryUsage();
const spacesRightAfter = getHeapSpaceStatistics();
const rssRightAfter = rightAfter.rss;
await settle();
const after = process.memoryUsage();
await settle();
const perUser = (bytes: number) => (bytes / users).toFixed(0);
console.log(
  `${new Date().toISOString()} · Node ${process.version} · load average ${os.loadavg()[0]?.toFixed(1)}`,
);
console.log(`${users.toLocaleString('en-US')} users created in ${seconds.toFixed(1)} s`);
console.log(
  '| users | heap used ÷ users | heap growth ÷ users | heap total (committed) ÷ users | RSS ÷ users right after seeding | RSS ÷ users after GC | RSS growth ÷ users after GC | RSS after GC |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
console.log(
  `| ${users.toLocaleString('en-US')} | ${perUser(after.heapUsed)} B | ${perUser(after.heapUsed - before.heapUsed)} B | ${perUser(after.heapTotal)} B | ${perUser(rssRightAfter)} B | ${perUser(after.rss)} B | ${perUser(after.rss - before.rss)} B | ${(after.rss / MiB).toFixed(0)} MiB |`,
);
console.log('\nRight after seeding (what the kit reads), bytes ÷ users:\n');
console.log('| part | used ÷ users | committed ÷ users |');
console.log('|---|---:|---:|');
for (const space of spacesRightAfter)
  if (space.space_size > 0)
    console.log(
      `| heap: ${space.space_name} | ${perUser(space.space_used_size)} B | ${perUser(space.space_size)} B |`,
    );
const { heapUsed, heapTotal, external, rss } = rightAfter;
console.log(`| heap, all spaces | ${perUser(heapUsed)} B | ${perUser(heapTotal)} B |`);
console.log(`| outside the heap (external) | ${perUser(external)} B | |`);
console.log(
  `| the rest of the process (RSS − heap committed − external) | | ${perUser(rss - heapTotal - external)} B |`,
);
console.log(`| **RSS** | | **${perUser(rss)} B** (${(rss / MiB).toFixed(0)} MiB) |`);
if (args.snapshot) console.log(`heap snapshot: ${writeHeapSnapshot(args.snapshot)}`);
await scim.close();
