/**
 * The Bulk benchmark's noise-free companion: the user-space instructions that N operations cost
 * in one `/Bulk` request and as N requests one by one, in process (`scim.handle`, memory store),
 * counted by valgrind's callgrind. Counts do not depend on what else the shared machine does.
 * For each side a child process runs under callgrind: it creates N users and PATCHes them once
 * (warm-up, on a service it then discards), then, on a fresh service, the N creates and the N
 * PATCHes measured, each between two dumps this process asks callgrind for.
 *
 * Run: `node --import tsx bench/bulk/instructions.ts [--n 1000]` (needs `valgrind`; a few
 * minutes: each child runs about 50 times slower under it).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scim } from '../../src/index.js';
import { callgrindCount, spawnUnderCallgrind } from '../callgrind-count.js';
import { BULK, patchBody, send, service, userBody } from './workload.js';

const { values: args } = parseArgs({
  options: { n: { type: 'string', default: '1000' }, child: { type: 'string' } },
});
const N = Number(args.n);
type Side = 'one' | 'bulk';
type Phase = 'create' | 'patch';

/** Runs one phase on one side; returns the ids created. */
async function run(scim: Scim, side: Side, phase: Phase, ids: string[]): Promise<string[]> {
  if (side === 'one') {
    if (phase === 'patch') {
      for (const id of ids) await send(scim, 'PATCH', `/Users/${id}`, patchBody);
      return ids;
    }
    const created: string[] = [];
    for (let i = 0; i < N; i++) {
      const r = await send(scim, 'POST', '/Users', userBody(i));
      created.push((JSON.parse(r.body as string) as { id: string }).id);
    }
    return created;
  }
  const operations =
    phase === 'create'
      ? Array.from({ length: N }, (_, i) => ({
          method: 'POST',
          path: '/Users',
          bulkId: `b${i}`,
          data: userBody(i),
        }))
      : ids.map((id) => ({ method: 'PATCH', path: `/Users/${id}`, data: patchBody }));
  const r = await send(scim, 'POST', '/Bulk', { schemas: [BULK], Operations: operations });
  const results = (JSON.parse(r.body as string) as { Operations: { location: string }[] })
    .Operations;
  return results.map((o) => o.location.slice(o.location.lastIndexOf('/') + 1));
}

// The child: waits for the parent's word before and after each measured phase.
async function child(side: Side): Promise<void> {
  const ask = (message: string) =>
    new Promise<void>((resolve) => {
      process.once('message', () => resolve());
      process.send?.(message);
    });
  const warm = service();
  await run(warm, side, 'patch', await run(warm, side, 'create', []));
  await warm.close();
  const scim = service();
  await ask('create');
  const ids = await run(scim, side, 'create', []);
  await ask('created');
  await ask('patch');
  await run(scim, side, 'patch', ids);
  await ask('patched');
  await scim.close();
  process.exit(0);
}

async function measure(side: Side): Promise<Record<Phase, number>> {
  const folder = mkdtempSync(join(tmpdir(), `scimkit-bulk-instructions-${side}-`));
  const script = new URL(import.meta.url).pathname;
  const proc: ChildProcess = spawnUnderCallgrind(
    folder,
    script,
    ['--n', String(N), '--child', side],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const counts: Partial<Record<Phase, number>> = {};
  await new Promise<void>((resolve, reject) => {
    proc.on('message', (message) => {
      const count = callgrindCount(proc.pid as number, folder);
      if (message === 'created') counts.create = count;
      if (message === 'patched') counts.patch = count;
      proc.send('go');
    });
    proc.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${side} exited ${code}`)),
    );
  });
  rmSync(folder, { recursive: true, force: true });
  return counts as Record<Phase, number>;
}

if (args.child === 'one' || args.child === 'bulk') await child(args.child);
else {
  // The two sides run side by side: each takes one of the two cores.
  const [one, bulk] = await Promise.all([measure('one'), measure('bulk')]);
  console.log(`valgrind callgrind, node ${process.version}, N = ${N}, instructions per operation`);
  console.log('| phase | one by one | one /Bulk | ratio |\n|---|---:|---:|---:|');
  for (const phase of ['create', 'patch'] as const) {
    const o = one[phase] / N;
    const b = bulk[phase] / N;
    console.log(
      `| ${N} ${phase}s | ${Math.round(o)} | ${Math.round(b)} | ${(b / o).toFixed(3)}× |`,
    );
  }
}
