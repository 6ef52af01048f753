import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// What the build reads besides src/: a change to any of them makes dist/ stale too.
const BUILD_INPUTS = ['tsup.config.ts', 'entry-points.ts', 'package.json'];

// The newest modification time under `path` (a file or a folder), 0 when it does not exist.
function newest(path: string): number {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), 0);
}

/** Whether `root`'s dist/ exists and is at least as new as everything it is built from. */
export function isBuilt(root: string): boolean {
  const built = newest(join(root, 'dist', 'index.js'));
  const sources = Math.max(
    newest(join(root, 'src')),
    ...BUILD_INPUTS.map((f) => newest(join(root, f))),
  );
  return built > 0 && built >= sources;
}

/**
 * Builds the package under `root` with `build` when its dist/ is missing or older than its
 * sources, so `npm run test:runtimes` works on a fresh clone; resolves to whether it built.
 *
 * @throws Error when the build left dist/ missing or stale.
 */
export async function ensureBuilt(root: string, build: () => Promise<void>): Promise<boolean> {
  if (isBuilt(root)) return false;
  await build();
  if (!isBuilt(root)) throw new Error(`the build left ${join(root, 'dist')} missing or stale`);
  return true;
}
