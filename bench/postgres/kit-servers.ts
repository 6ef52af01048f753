// The shared benchmark kit's servers, for the PostgreSQL tools that start them one by one
// (cpu-split.ts, sustained-creates.ts): the kit's registry (`SCIM_BENCH_KIT`, else
// `../shared/bench` next to the repository, as `npm run bench:kit` finds it) with scimkit's
// PostgreSQL kit servers (`POSTGRES_SERVERS` of bench/kit/kit.ts) and `name=path` servers of
// other checkouts added.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KIT_SOURCE, POSTGRES_SERVERS, ROOT } from '../kit/kit.js';

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

/**
 * Registers the servers of a `--servers` list (the kit's names, scimkit's PostgreSQL kit
 * servers, and `name=path` for a built kit server of another checkout) with the kit, and
 * returns their names in order and the kit's `startServer`.
 */
export async function kitServers(
  list: string,
): Promise<{ readonly names: string[]; readonly startServer: StartServer }> {
  const { addServers, startServer } = (await import(
    pathToFileURL(join(KIT_SOURCE, 'lib/servers.mjs')).href
  )) as KitRegistry;
  const entries = list.split(',').filter((entry) => entry !== '');
  const names = entries.map((entry) =>
    entry.includes('=') ? entry.slice(0, entry.indexOf('=')) : entry,
  );
  const specs = entries.flatMap((entry) => {
    const at = entry.indexOf('=');
    if (at > 0) return [`${entry.slice(0, at)}=${resolve(entry.slice(at + 1))}`];
    const file = (POSTGRES_SERVERS as Readonly<Record<string, string>>)[entry];
    return file === undefined ? [] : [`${entry}=${join(ROOT, file)}`];
  });
  if (specs.length > 0) addServers(specs.join(','));
  return { names, startServer };
}
