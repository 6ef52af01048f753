import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { RunningServer } from '../http/harness.js';
import type { RuntimeName } from './find-runtime.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ENTRIES = join(import.meta.dirname, 'entries');
/** Where the entries mount the service (entries/service.ts; they are not imported here). */
export const MOUNT = '/api/v1/scim/v2';

/** Which store an entry serves (entries/store.ts). */
export type StoreKind = 'memory' | 'pglite';

/** How long a runtime may take to listen: PGlite's first start builds a database in WebAssembly. */
const START_TIMEOUT_MS: Record<StoreKind, number> = { memory: 30_000, pglite: 120_000 };

/** A child process serving an entry, with what it printed so far for failure messages. */
interface Child {
  readonly process: ChildProcess;
  output(): string;
}

// Children still running when this test process exits (a test that failed before close(), a
// run cut short) are killed with it, so no server outlives the suite.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function launch(binary: string, args: string[], env: Record<string, string>): Child {
  // stdin stays open as a pipe: the Bun and Deno entries exit when it closes, which it does
  // even when this process is killed outright.
  const child = spawn(binary, args, {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const keep = (chunk: Buffer): void => {
    // Bounded: only the tail matters when a start fails.
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { process: child, output: () => output };
}

/** Stops a child: SIGTERM, then SIGKILL if it is still there after two seconds. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Resolves with what `ready` finds once it finds something; rejects, with the child's output,
 * when the child exits first or `timeoutMs` passes (the child is then stopped).
 */
async function waitFor(
  child: Child,
  timeoutMs: number,
  ready: () => Promise<string | undefined>,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`the runtime exited before listening:\n${child.output()}`);
    }
    const found = await ready();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop(child.process);
  throw new Error(`the runtime did not listen within ${timeoutMs} ms:\n${child.output()}`);
}

/** Reads the origin an entry printed as `listening on http://127.0.0.1:<port>`. */
function printedOrigin(child: Child): () => Promise<string | undefined> {
  return () =>
    Promise.resolve(/listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(child.output())?.[1]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves `origin` once anything answers HTTP there (servers that print nothing on start). */
function answering(origin: string): () => Promise<string | undefined> {
  return () =>
    fetch(origin).then(
      () => origin,
      () => undefined,
    );
}

function served(origin: string, child: Child, cleanup?: () => Promise<void>): RunningServer {
  return {
    origin,
    url: origin + MOUNT,
    close: async () => {
      await stop(child.process);
      await cleanup?.();
    },
  };
}

/**
 * Serves a Worker in workerd on a free port: bundles `worker` with esbuild (as Wrangler would)
 * to `.data/worker.js` beside a copy of `config`, which embeds that file.
 */
async function serveWorker(binary: string, worker: string, config: string): Promise<RunningServer> {
  const dir = await mkdtemp(join(tmpdir(), 'scimkit-workerd-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await build({
      entryPoints: [worker],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile: join(dir, '.data', 'worker.js'),
      logLevel: 'error',
    });
    await copyFile(config, join(dir, 'config.capnp'));
    const port = await freePort();
    const args = ['serve', join(dir, 'config.capnp'), '--socket-addr', `http=127.0.0.1:${port}`];
    const child = launch(binary, args, {});
    const origin = await waitFor(
      child,
      START_TIMEOUT_MS.memory,
      answering(`http://127.0.0.1:${port}`),
    );
    return served(origin, child, cleanup);
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * Starts `runtime` serving the contract service (entries/) on 127.0.0.1 and a free port, as a
 * child process that `close()` stops. Bun and Deno run the entry unbundled, importing the built
 * `dist` by the package's own name; workerd runs it bundled.
 */
export async function startRuntime(
  runtime: RuntimeName,
  binary: string,
  store: StoreKind = 'memory',
): Promise<RunningServer> {
  if (runtime === 'workerd') {
    if (store !== 'memory') throw new Error('workerd runs the memory store only');
    return serveWorker(binary, join(ENTRIES, 'worker.ts'), join(ENTRIES, 'config.capnp'));
  }
  const env = { SCIMKIT_STORE: store, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' };
  const args =
    runtime === 'bun'
      ? [join(ENTRIES, 'bun.ts')]
      : // Only what the entry needs: loopback sockets, its env, and reading node_modules.
        ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', join(ENTRIES, 'deno.ts')];
  const child = launch(binary, args, env);
  const origin = await waitFor(child, START_TIMEOUT_MS[store], printedOrigin(child));
  return served(origin, child);
}

/**
 * Starts examples/<runtime>/ the way its header comment says, from this repository's sources,
 * on a free port.
 */
export async function startExample(runtime: RuntimeName, binary: string): Promise<RunningServer> {
  const example = join(ROOT, 'examples', runtime);
  if (runtime === 'workerd') {
    return serveWorker(binary, join(example, 'worker.ts'), join(example, 'config.capnp'));
  }
  const port = String(await freePort());
  const args =
    runtime === 'bun'
      ? [join(example, 'main.ts')]
      : [
          'serve',
          '--allow-env',
          '--allow-net=127.0.0.1',
          '--host',
          '127.0.0.1',
          '--port',
          port,
        ].concat(['--unstable-sloppy-imports', join(example, 'main.ts')]);
  const child = launch(binary, args, { PORT: port, DENO_NO_UPDATE_CHECK: '1' });
  return served(
    await waitFor(child, START_TIMEOUT_MS.memory, answering(`http://127.0.0.1:${port}`)),
    child,
  );
}
