// Passes over every page of a directory, in process: the kit's service (servers/service.mjs, the
// built `dist`) preseeded with N users, then `passes` walks over all pages of 100 through
// `scim.handle`, printing CPU µs per page for each pass. Shows what the kept texts of
// src/core/http/response-json.ts cost and buy when a directory is read again and again (an IdP's
// full syncs), for a directory smaller or larger than their cache: a text is kept from a user's
// second read, so the second pass is where keeping (and the settled check) is paid.
//
// `--instructions` counts instead of timing: the same passes run under callgrind (needs
// valgrind), with a dump after the preseed and after each pass, and it prints instructions per
// page for each pass, which do not move with the machine's load. ROOT is a checkout with its
// `dist` built (`npm run build`); give two runs ROOTs to compare versions.
//
//   node --import tsx bench/kit/page-passes.ts [users=20000] [passes=4] [root=this checkout]
//     [--instructions]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { callgrindCount, spawnUnderCallgrind } from '../callgrind-count.js';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { instructions: { type: 'boolean', default: false }, counted: { type: 'boolean' } },
});
const users = Number(positionals[0] ?? 20_000);
const passes = Number(positionals[1] ?? 4);
const root = positionals[2] ?? new URL('../..', import.meta.url).pathname;
const pages = Math.ceil(users / 100);

if (flags.instructions) await countPasses();
else await runPasses(flags.counted === true);
process.exit(0);

// This script again under callgrind: each line it prints (after the preseed, after each pass)
// asks for a dump, answered on its stdin once the dump is written.
async function countPasses(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'page-passes-'));
  const script = fileURLToPath(import.meta.url);
  const child = spawnUnderCallgrind(
    folder,
    script,
    [String(users), String(passes), root, '--counted'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const counts: number[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line !== 'dump') continue;
    counts.push(callgrindCount(child.pid as number, folder));
    child.stdin!.write('\n');
  }
  rmSync(folder, { recursive: true, force: true });
  // The first count is start-up and the preseed.
  const perPass = counts.slice(1).map((n) => Math.round(n / pages));
  console.log(JSON.stringify({ root, users, instructionsPerPage: perPass }));
}

async function runPasses(counted: boolean): Promise<void> {
  const lines = counted ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : null;
  // Under callgrind: asks the parent for a dump and waits until it is written.
  const dump = async () => {
    if (!lines) return;
    console.log('dump');
    await lines.next();
  };
  process.env.SCIMKIT_PRESEED = String(users);
  const service = await import(pathToFileURL(`${root}/bench/kit/servers/service.mjs`).href);
  const { scim, preseed, PREFIX, HOST, PORT } = service as {
    scim: { handle(request: object): Promise<{ status: number }> };
    preseed(): Promise<void>;
    PREFIX: string;
    HOST: string;
    PORT: number;
  };
  await preseed();
  await dump();
  const headers = { authorization: 'Bearer bench-token' };
  const perPass: number[] = [];
  for (let p = 0; p < passes; p++) {
    const start = process.cpuUsage();
    for (let s = 1; s <= users; s += 100) {
      const response = await scim.handle({
        method: 'GET',
        path: `${PREFIX}/Users`,
        query: `startIndex=${s}&count=100`,
        headers,
        baseUrl: `http://${HOST}:${PORT}`,
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    }
    const used = process.cpuUsage(start);
    perPass.push(Math.round((used.user + used.system) / pages));
    await dump();
  }
  if (!counted) console.log(JSON.stringify({ root, users, usPerPage: perPass }));
}
