/**
 * Lists of large groups under the response byte budget: `--groups` groups of `--members`
 * members each (the same users in every group) on the memory store, served through the node
 * adapter on a loopback port, and `--clients` concurrent clients each listing `/Groups` without
 * `excludedAttributes` (what Okta's group import sends), paging on by `startIndex` until every
 * group was seen, `--walks` times. Clients stream each answer and read only its head
 * (`itemsPerPage`), so the heap sampled (`heapUsed`, every 5 ms, after a GC at the start) is the
 * server's. Prints answers by status, pages, the largest answer, the peak heap above the
 * loaded store, and that peak over `maxResponseBytesInFlight`.
 *
 *   node --expose-gc --import tsx bench/groups/large-group-list.ts \
 *     [--groups 12] [--members 100000] [--clients 8] [--walks 1] [--max-response-mib 16] [--live]
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scimNode } from '../../src/adapters/node/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { numberArg } from './membership-fixtures.js';

const GROUPS = numberArg('--groups', 12);
const MEMBERS = numberArg('--members', 100_000);
const CLIENTS = numberArg('--clients', 8);
const WALKS = numberArg('--walks', 1);
const MAX_RESPONSE = numberArg('--max-response-mib', 16) * 1024 * 1024;
const IN_FLIGHT = 4 * MAX_RESPONSE;
const TENANT = 'bench';
const MIB = 1024 * 1024;

const gc = (globalThis as { gc?: () => void }).gc;

async function load(store: MemoryUserStore): Promise<void> {
  const users = createUserFactory();
  const ids: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const user = users.make();
    await store.create(TENANT, user);
    ids.push(user.id);
  }
  const members = ids.map((value) => ({ value }));
  for (let g = 0; g < GROUPS; g++) {
    const now = '2025-01-01T00:00:00.000Z';
    await store.groups?.create(
      TENANT,
      {
        schemas: [GROUP_SCHEMA],
        id: `g-${String(g).padStart(4, '0')}`,
        displayName: `Large group ${g}`,
        meta: { resourceType: 'Group', created: now, lastModified: now, version: 'W/"1"' },
      },
      members,
    );
  }
}

// One answer, streamed: its status and, from the head of a list, `itemsPerPage`.
async function get(url: string): Promise<{ status: number; items: number; bytes: number }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TENANT}` } });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let head = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (head.length < 512) head += new TextDecoder().decode(value.subarray(0, 512));
  }
  const items = Number(/"itemsPerPage":(\d+)/.exec(head)?.[1] ?? 0);
  return { status: response.status, items, bytes };
}

async function main() {
  const store = new MemoryUserStore();
  const loadStart = Date.now();
  await load(store);
  console.log(`loaded ${GROUPS} groups × ${MEMBERS} members in ${Date.now() - loadStart} ms`);
  const scim = createScim({
    store,
    verifier: staticApiKeys([{ key: TENANT, tenant: TENANT }]),
    mailer: { sendWelcome: async () => undefined },
    maxResponseBytes: MAX_RESPONSE,
    maxResponseBytesInFlight: IN_FLIGHT,
  });
  const server = createServer(scimNode(scim)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}/Groups`;

  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  // heapUsed counts garbage not yet collected too; with --live, a full GC every 250 ms shows
  // what is live (and slows the run down a lot).
  let live = baseline;
  const sampleLive = process.argv.includes('--live');
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const liveSampler = setInterval(() => {
    if (!sampleLive) return;
    gc?.();
    live = Math.max(live, process.memoryUsage().heapUsed);
  }, 250);

  const statuses = new Map<number, number>();
  let pages = 0;
  let largest = 0;
  let networkError: string | undefined;
  const started = Date.now();
  // Bounded: each walk ends after every group is seen, or after GROUPS × 20 answers.
  const walk = async () => {
    let startIndex = 1;
    for (let tries = 0; startIndex <= GROUPS && tries < GROUPS * 20; tries++) {
      let answer: Awaited<ReturnType<typeof get>>;
      try {
        answer = await get(`${base}?startIndex=${startIndex}&count=100`);
      } catch (error) {
        // A client-side failure (a reused keep-alive connection the server had closed, say):
        // counted as status 0 and reported, not a server answer.
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
        networkError ??= String((error as { cause?: unknown }).cause ?? error);
        continue;
      }
      const { status, items, bytes } = answer;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      largest = Math.max(largest, bytes);
      if (status === 200) {
        pages++;
        startIndex += items;
      } else if (status === 503) await new Promise((r) => setTimeout(r, 50));
      else break;
    }
  };
  for (let w = 0; w < WALKS; w++) await Promise.all(Array.from({ length: CLIENTS }, walk));
  const elapsed = Date.now() - started;
  clearInterval(sampler);
  clearInterval(liveSampler);
  server.close();
  scim.close();

  const above = peak - baseline;
  console.log(
    `${CLIENTS} clients × ${WALKS} walk(s) of GET /Groups in ${elapsed} ms; ` +
      `maxResponseBytes ${MAX_RESPONSE / MIB} MiB, in flight ${IN_FLIGHT / MIB} MiB`,
  );
  console.log(`answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
  if (networkError !== undefined) console.log(`client-side failures (status 0): ${networkError}`);
  console.log(`200 pages: ${pages}; largest answer: ${(largest / MIB).toFixed(1)} MiB`);
  console.log(
    `heap: baseline ${(baseline / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB, ` +
      `peak above baseline ${(above / MIB).toFixed(0)} MiB = ` +
      `${(above / IN_FLIGHT).toFixed(2)} × maxResponseBytesInFlight`,
  );
  if (gc && sampleLive)
    console.log(
      `live heap (sampled after a full GC every 250 ms): peak ${(live / MIB).toFixed(0)} MiB, ` +
        `${((live - baseline) / MIB).toFixed(0)} MiB above baseline = ` +
        `${((live - baseline) / IN_FLIGHT).toFixed(2)} × maxResponseBytesInFlight`,
    );
  const failed = [...statuses.keys()].filter((s) => s >= 500);
  if (failed.length > 0) process.exitCode = 1;
}

await main();
