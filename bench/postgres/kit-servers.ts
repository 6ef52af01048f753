// The shared benchmark kit's servers, for the PostgreSQL tools that start them one by one
// (cpu-split.ts, sustained-creates.ts): the kit's registry (`SCIM_BENCH_KIT`, else
// `../shared/bench` next to the repository, as `npm run bench:kit` finds it) with scimkit's
// PostgreSQL kit servers and `name=path` servers of other checkouts added.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A server the kit started. */
export interface KitServer {
  readonly pid: number;
  stop(): Promise<void>;
}

/** What starts a server of the kit by name. */
export type StartServer = (
  name: string,
  options: { port: number; cpu: string; env: Record<string, string> },
) => Promise<KitServer>;

interface KitRegistry {
  addServers(specs: string): void;
  startServer: StartServer;
}

const root = new URL('../../', import.meta.url).pathname;

/** Where the kit is: its wrk script is `wrk/scim.lua` there. */
export const kitSource = resolve(process.env['SCIM_BENCH_KIT'] ?? join(root, '../shared/bench'));

/** scimkit's PostgreSQL kit servers, by the name the tools take. */
const OURS: Readonly<Record<string, string>> = {
  'scimkit-node-pg': 'node-pg.mjs',
  'scimkit-node-pg-log': 'node-pg-log.mjs',
  'scimkit-node-pg-no-log': 'node-pg-no-log.mjs',
  'raw-pg-read': 'raw-pg-read.mjs',
  'raw-pg-read-events': 'raw-pg-read-events.mjs',
  'raw-pg-read-events-count': 'raw-pg-read-events-count.mjs',
  'raw-pg-read-events-count-invite': 'raw-pg-read-events-count-invite.mjs',
  'raw-pg-read-groups': 'raw-pg-read-groups.mjs',
};

/**
 * Registers the servers of a `--servers` list (the kit's names, scimkit's PostgreSQL kit
 * servers, and `name=path` for a built kit server of another checkout) with the kit, and
 * returns their names in order and the kit's `startServer`.
 */
export async function kitServers(
  list: string,
): Promise<{ readonly names: string[]; readonly startServer: StartServer }> {
  const { addServers, startServer } = (await import(
    pathToFileURL(join(kitSource, 'lib/servers.mjs')).href
  )) as KitRegistry;
  const entries = list.split(',').filter((entry) => entry !== '');
  const names = entries.map((entry) =>
    entry.includes('=') ? entry.slice(0, entry.indexOf('=')) : entry,
  );
  const specs = entries.flatMap((entry) => {
    const at = entry.indexOf('=');
    if (at > 0) return [`${entry.slice(0, at)}=${resolve(entry.slice(at + 1))}`];
    const file = OURS[entry];
    return file === undefined ? [] : [`${entry}=${root}bench/kit/servers/${file}`];
  });
  if (specs.length > 0) addServers(specs.join(','));
  return { names, startServer };
}
