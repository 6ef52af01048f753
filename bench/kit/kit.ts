// What the kit scripts share: where the shared benchmark kit is, a scratch copy of it with its
// dependencies installed (the kit itself is never written to), wrk, the build, the machine's
// load, and the scimkit servers registered with the kit's `--add`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The shared kit: `SCIM_BENCH_KIT`, else `../shared/bench` next to the repository. */
export const KIT_SOURCE = resolve(process.env.SCIM_BENCH_KIT ?? join(ROOT, '../shared/bench'));

/** The scratch folder holding the kit's copies (`kit-<pid>/`) and its npm installs (`work/`). */
export const SCRATCH = resolve(
  process.env.SCIMKIT_BENCH_SCRATCH ?? join(tmpdir(), 'scimkit-bench-kit'),
);

/** scimkit's servers, by the name the kit reports them under. */
export const SCIMKIT_SERVERS = {
  'scimkit-node': 'bench/kit/servers/node.mjs',
  'scimkit-hono': 'bench/kit/servers/hono.mjs',
  'scimkit-fastify': 'bench/kit/servers/fastify.mjs',
  'scimkit-express': 'bench/kit/servers/express.mjs',
  'scimkit-fetch': 'bench/kit/servers/fetch.mjs',
} as const;

/**
 * Kit servers that are not in a default run: scimkit's adapters over the stand-in core of
 * `servers/stub-scim.mjs`, which does only the floors' work, so that a run shows what an
 * adapter costs without the core (`--servers raw,raw-store,scimkit-node-stub,scimkit-node`);
 * and the node adapter on a memory store without the event log, and with it but without the
 * welcome email, so that a run shows what the log and the email cost
 * (`--servers raw-store,scimkit-node-no-log,scimkit-node-log,scimkit-node`).
 */
export const DIAGNOSTIC_SERVERS = {
  'scimkit-node-stub': 'bench/kit/servers/node-stub.mjs',
  'scimkit-hono-stub': 'bench/kit/servers/hono-stub.mjs',
  'scimkit-fastify-stub': 'bench/kit/servers/fastify-stub.mjs',
  'scimkit-node-no-log': 'bench/kit/servers/node-no-log.mjs',
  'scimkit-node-log': 'bench/kit/servers/node-log.mjs',
} as const;

/**
 * Kit servers on the PostgreSQL store, not in a default run: over a `pg` Pool beside the kit's
 * `raw-pg` baseline (a PostgreSQL server at `DATABASE_URL`, as raw-pg), and on PGlite
 * (`--servers raw-pg,scimkit-node-pg,scimkit-node-pglite`); and the bounds of
 * `servers/raw-pg-read.mjs`: raw-pg whose PATCH and PUT read before a conditional write, that
 * with an event recorded by every write, that with the count a create keeps, that with the
 * welcome email recorded by a create and delivered from the log, raw-pg-read whose reads
 * also read the user's groups, and raw-pg-read sharing its statements as scimkit's store does,
 * alone, with all of these, and with them and the account's event of a write that changes
 * `active`.
 */
export const POSTGRES_SERVERS = {
  'scimkit-node-pg': 'bench/kit/servers/node-pg.mjs',
  'scimkit-node-pglite': 'bench/kit/servers/node-pglite.mjs',
  'scimkit-node-pg-log': 'bench/kit/servers/node-pg-log.mjs',
  'scimkit-node-pg-no-log': 'bench/kit/servers/node-pg-no-log.mjs',
  'raw-pg-read': 'bench/kit/servers/raw-pg-read.mjs',
  'raw-pg-read-events': 'bench/kit/servers/raw-pg-read-events.mjs',
  'raw-pg-read-events-count': 'bench/kit/servers/raw-pg-read-events-count.mjs',
  'raw-pg-read-events-count-invite': 'bench/kit/servers/raw-pg-read-events-count-invite.mjs',
  'raw-pg-read-groups': 'bench/kit/servers/raw-pg-read-groups.mjs',
  'raw-pg-read-shared': 'bench/kit/servers/raw-pg-read-shared.mjs',
  'raw-pg-read-shared-all': 'bench/kit/servers/raw-pg-read-shared-all.mjs',
  'raw-pg-read-shared-all-status': 'bench/kit/servers/raw-pg-read-shared-all-status.mjs',
} as const;

/**
 * The kit's `--add` value registering the servers named in `names`: scimkit's and the diagnostic
 * ones by name, and `name=path` entries as given (a path relative to the working directory), so
 * that a kit server of another checkout runs beside this one's, side by side in one run
 * (`--servers raw-store,scimkit-node,main=../main/bench/kit/servers/node.mjs`).
 */
export function addSpec(names: readonly string[]): string {
  const known: Readonly<Record<string, string>> = {
    ...SCIMKIT_SERVERS,
    ...DIAGNOSTIC_SERVERS,
    ...POSTGRES_SERVERS,
  };
  return names
    .flatMap((entry) => {
      const at = entry.indexOf('=');
      if (at > 0) return [`${entry.slice(0, at)}=${resolve(entry.slice(at + 1))}`];
      const file = known[entry];
      return file === undefined ? [] : [`${entry}=${join(ROOT, file)}`];
    })
    .join(',');
}

/** The names the kit reports the servers of `--servers` under (`name=path` entries by name). */
export function serverNames(entries: readonly string[]): string[] {
  return entries.map((entry) => (entry.includes('=') ? entry.slice(0, entry.indexOf('=')) : entry));
}

const INSTALLED = ['baselines', 'peers', 'micro'] as const;

/**
 * Copies the kit into `SCRATCH/kit-<pid>` (removed when the process exits) and links the npm installs of its baselines, peers and
 * micro-benchmarks there, running the kit's `setup.sh` (against the copy, installing into
 * `SCRATCH/work`) only when those installs are missing or the kit's package files changed.
 * Returns the copy's path: run the kit's scripts from there.
 */
export function prepareKit(): string {
  if (!existsSync(join(KIT_SOURCE, 'run-suite.mjs'))) {
    throw new Error(`no benchmark kit at ${KIT_SOURCE}: set SCIM_BENCH_KIT to its folder`);
  }
  // One copy per run, so that runs side by side never share (or delete) each other's copy.
  const kit = join(SCRATCH, `kit-${process.pid}`);
  const work = join(SCRATCH, 'work');
  rmSync(kit, { recursive: true, force: true });
  process.once('exit', () => rmSync(kit, { recursive: true, force: true }));
  cpSync(KIT_SOURCE, kit, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|results)$/.test(source),
  });
  // The kit's files may be read-only; the copy's node_modules links are written below.
  spawnSync('chmod', ['-R', 'u+w', kit]);
  const hash = createHash('sha256');
  for (const dir of INSTALLED) {
    for (const file of ['package.json', 'package-lock.json']) {
      const path = join(kit, dir, file);
      if (existsSync(path)) hash.update(`${dir}/${file}\n`).update(readFileSync(path));
    }
  }
  const stamp = hash.digest('hex');
  const stampFile = join(work, '.stamp');
  const installed =
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp &&
    INSTALLED.every((dir) => existsSync(join(work, dir, 'node_modules')));
  if (installed) {
    for (const dir of INSTALLED)
      symlinkSync(join(work, dir, 'node_modules'), join(kit, dir, 'node_modules'));
  } else {
    console.error(`== installing the kit's dependencies into ${work} (setup.sh)`);
    mkdirSync(work, { recursive: true });
    const setup = spawnSync('bash', [join(kit, 'setup.sh')], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_WORK: work },
    });
    if (setup.status !== 0) throw new Error(`setup.sh failed (exit ${setup.status})`);
    writeFileSync(stampFile, stamp);
  }
  return kit;
}

/** Installs Debian's wrk when it is missing (as root), or says how to. */
export function ensureWrk(): void {
  if (spawnSync('wrk', ['-v']).error === undefined) return;
  if (process.getuid?.() !== 0) throw new Error('wrk not found: apt-get install -y wrk');
  console.error('== installing wrk (apt-get install -y wrk)');
  let install = spawnSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' });
  if (install.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    install = spawnSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' });
  }
  if (install.status !== 0) throw new Error('apt-get install -y wrk failed');
}

/** Builds `dist`, which the kit servers import by the package's own name. */
export function build(skip: boolean): void {
  if (skip) {
    if (!existsSync(join(ROOT, 'dist/index.js')))
      throw new Error('--no-build, but no dist: run npm run build');
    return;
  }
  console.error('== npm run build');
  const run = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) throw new Error('npm run build failed');
}

/** The commit measured, with `+dirty` when the working tree has changes. */
export function commit(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src', 'bench/kit/servers'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim();
  return dirty === '' ? head : `${head}+dirty`;
}

/** Samples the 1-minute load average every 15 s while a run lasts. */
export function loadSampler(): {
  stop(): { start: string; end: string; min: number; median: number; max: number };
} {
  const start = uptimeText();
  const samples = [loadavg()[0]!];
  const timer = setInterval(() => samples.push(loadavg()[0]!), 15_000);
  return {
    stop() {
      clearInterval(timer);
      samples.push(loadavg()[0]!);
      const sorted = [...samples].sort((a, b) => a - b);
      const round = (x: number) => Math.round(x * 100) / 100;
      return {
        start,
        end: uptimeText(),
        min: round(sorted[0]!),
        median: round(sorted[sorted.length >> 1]!),
        max: round(sorted[sorted.length - 1]!),
      };
    },
  };
}

function uptimeText(): string {
  const out = spawnSync('uptime', { encoding: 'utf8' }).stdout?.trim();
  return out !== undefined && out !== ''
    ? out
    : `load average: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')}`;
}

/**
 * `bench/kit/results/<YYYY-MM-DD>/<kind>-<HHMM>` for a run started now; `-2`, `-3`, … after it
 * when a run of the same kind started in the same minute, so neither overwrites the other.
 */
export function resultsDir(kind: string): string {
  const now = new Date().toISOString();
  const base = join(
    ROOT,
    'bench/kit/results',
    now.slice(0, 10),
    `${kind}-${now.slice(11, 16).replace(':', '')}`,
  );
  let folder = base;
  for (let n = 2; existsSync(folder); n++) folder = `${base}-${n}`;
  return folder;
}

/**
 * Runs a kit script (`node <script> ...args` in the kit's copy) with its output shown, and kills
 * it (and the servers it started, which share its process group) once `limitMs` has passed.
 */
export function runKitScript(
  kit: string,
  script: string,
  args: readonly string[],
  limitMs: number,
): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(kit, script), ...args], {
      cwd: kit,
      stdio: 'inherit',
      detached: true,
    });
    const timer = setTimeout(() => {
      console.error(
        `== ${script} passed its time limit (${Math.round(limitMs / 60_000)} min): stopping it`,
      );
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, limitMs);
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done();
      else fail(new Error(`${script} ended with ${signal ?? `exit ${code}`}`));
    });
  });
}

/**
 * What every kit script does first: wrk, the build (unless `noBuild`), a prepared copy of the
 * kit, and a load sampler started now. `out` (made if missing) defaults to a fresh results folder
 * of `kind`, under `bench/kit/results/`, which git ignores.
 */
export function startRun(kind: string, out: string | undefined, noBuild: boolean) {
  ensureWrk();
  build(noBuild);
  const kit = prepareKit();
  // The results folder is not in git: a fresh clone has none until a run makes it.
  const folder = out ?? resultsDir(kind);
  mkdirSync(folder, { recursive: true });
  return {
    kit,
    out: folder,
    load: loadSampler(),
    startedAt: new Date().toISOString(),
  };
}
