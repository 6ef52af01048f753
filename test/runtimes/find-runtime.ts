import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The three non-Node runtimes the Fetch adapter is tested on. */
export type RuntimeName = 'bun' | 'deno' | 'workerd';

/** The runtimes in the order the suite reports them. */
export const RUNTIME_NAMES: readonly RuntimeName[] = ['bun', 'deno', 'workerd'];

/** A runtime binary that answered `--version`, or why none did. */
export type FoundRuntime =
  | { readonly name: RuntimeName; readonly binary: string; readonly version: string }
  | { readonly name: RuntimeName; readonly binary?: undefined; readonly missing: string };

const ROOT = join(import.meta.dirname, '..', '..');
const MODULES = join(ROOT, 'node_modules');

/** Where each npm package keeps its binary: the platform package, then the wrapper package. */
const LAYOUT: Record<
  RuntimeName,
  { scope: string; prefix: string; file: string[]; wrapper: string[] }
> = {
  bun: { scope: '@oven', prefix: 'bun-', file: ['bin', 'bun'], wrapper: ['bun', 'bin', 'bun.exe'] },
  deno: { scope: '@deno', prefix: '', file: ['deno'], wrapper: ['deno', 'deno'] },
  workerd: {
    scope: '@cloudflare',
    prefix: 'workerd-',
    file: ['bin', 'workerd'],
    wrapper: ['workerd', 'bin', 'workerd'],
  },
};

/**
 * Lists the places a runtime's binary may be, best first: an explicit `SCIMKIT_<NAME>` path, the
 * binary inside the platform package npm installed (present even when install scripts are
 * blocked), the copy the wrapper package's postinstall moves next to itself, then `PATH`.
 */
function candidates(name: RuntimeName): string[] {
  const { scope, prefix, file, wrapper } = LAYOUT[name];
  const explicit = process.env[`SCIMKIT_${name.toUpperCase()}`];
  const scopeDir = join(MODULES, scope);
  const platform = existsSync(scopeDir)
    ? readdirSync(scopeDir)
        .filter((dir) => dir.startsWith(prefix))
        .map((dir) => join(scopeDir, dir, ...file))
    : [];
  const onPath = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name));
  return [...(explicit ? [explicit] : []), ...platform, join(MODULES, ...wrapper), ...onPath];
}

/**
 * Finds a runtime binary that runs on this machine: the first candidate that exists and answers
 * `--version` (a binary for another CPU, or one needing a newer glibc, fails that and is passed).
 */
export function findRuntime(name: RuntimeName): FoundRuntime {
  const tried: string[] = [];
  for (const binary of candidates(name)) {
    if (!existsSync(binary)) continue;
    const probe = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    // `bun 1.4.5`, `deno 2.9.5 (stable, …)`, `workerd 2026-10-23`: keep the version itself.
    const version = /\d[\w.-]*/.exec(probe.stdout)?.[0];
    if (probe.status === 0 && version !== undefined) return { name, binary, version };
    tried.push(`${binary} (${probe.error?.message ?? probe.stderr.trim().slice(0, 200)})`);
  }
  const detail = tried.length > 0 ? `; tried ${tried.join(', ')}` : '';
  return {
    name,
    missing: `no ${name} binary that runs here: none in node_modules (npm ci installs the ${name} package) or on PATH, nor at SCIMKIT_${name.toUpperCase()}${detail}`,
  };
}
