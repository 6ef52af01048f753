// Passes over every page of a directory, in process: the kit's service (servers/service.mjs, the
// built `dist`) preseeded with N users, then `passes` walks over all pages of 100 through
// `scim.handle`, printing CPU µs per page for each pass. Shows what the kept texts of
// src/core/http/response-json.ts cost and buy when a directory is read again and again (an IdP's
// full syncs), for a directory smaller or larger than their cache.
//
//   node --import tsx bench/kit/page-passes.ts [users=20000] [passes=4] [root=this checkout]
import { pathToFileURL } from 'node:url';

const users = Number(process.argv[2] ?? 20_000);
const passes = Number(process.argv[3] ?? 4);
const root = process.argv[4] ?? new URL('../..', import.meta.url).pathname;
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
const headers = { authorization: 'Bearer bench-token' };
const pages = Math.ceil(users / 100);
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
}
console.log(JSON.stringify({ root, users, usPerPage: perPass }));
process.exit(0);
