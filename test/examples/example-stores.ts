import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { StoreConfig } from '../../examples/server/config.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { ScimClient } from '../http/contract-client.js';
import { copyPgliteTemplate } from '../pglite/template.js';
import { testConfig } from './test-config.js';

const databaseUrl = process.env.SCIMKIT_TEST_DATABASE_URL;

/** A store the example server runs on in a test; `skip` says why it cannot run here. */
export interface ExampleStore {
  readonly name: string;
  /** A fresh store each call: a new PGlite folder, a new PostgreSQL schema. */
  readonly config: () => StoreConfig;
  readonly skip?: string;
}

/**
 * The stores the example server runs on: memory, PGlite, and the PostgreSQL server when
 * SCIMKIT_TEST_DATABASE_URL is set (else skipped, with that reason). `label` names the
 * PGlite folders and PostgreSQL schemas of the test file that asks.
 */
export function exampleStores(label: string): ExampleStore[] {
  return [
    { name: 'memory', config: () => ({ kind: 'memory' }) },
    {
      name: 'PGlite',
      config: () => {
        const dataDir = mkdtempSync(join(tmpdir(), `scimkit-${label}-`));
        // The empty database the server would make at its first start, without its initdb.
        copyPgliteTemplate(join(dataDir, 'pglite'));
        return { kind: 'pglite', dataDir };
      },
    },
    {
      name: 'PostgreSQL',
      config: () => ({
        kind: 'postgres',
        url: databaseUrl as string,
        schema: `${label}_${process.pid}_${Date.now()}`,
      }),
      ...(databaseUrl
        ? {}
        : { skip: 'SCIMKIT_TEST_DATABASE_URL is unset: no PostgreSQL server to run on' }),
    },
  ];
}

/** The example server on a fresh store, and how to stop it and let the store's data go. */
export interface ServedExample {
  readonly running: RunningServer;
  stop(): Promise<void>;
}

/** Starts the example server (the test configuration) on a fresh store of `store`. */
export async function serveOn(store: ExampleStore): Promise<ServedExample> {
  const config = store.config();
  const running = await startServer(testConfig({ store: config }), { print: () => undefined });
  return {
    running,
    async stop() {
      await running.close();
      await discard(config);
    },
  };
}

/**
 * Serves the example server on a fresh store of `store` for the tests of the enclosing
 * `describe` (started before them, stopped after), and gives its base URL once started.
 */
export function serveDuringTests(store: ExampleStore): () => string {
  let served: ServedExample | undefined;
  beforeAll(async () => {
    served = await serveOn(store);
  }, 300_000);
  afterAll(() => served?.stop());
  return () => {
    if (served === undefined) throw new Error('the example server has not started');
    return served.running.url;
  };
}

/** Lets a store's data go: removes the PGlite folder, drops the PostgreSQL schema. */
export async function discard(config: StoreConfig): Promise<void> {
  if (config.kind === 'pglite') rmSync(config.dataDir, { recursive: true, force: true });
  if (config.kind !== 'postgres' || config.schema === undefined) return;
  const pool = new pg.Pool({ connectionString: config.url, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${config.schema}" CASCADE`);
  } finally {
    await pool.end();
  }
}

/** One exchange with an example server as its tests read it. */
export interface ExampleReply {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed body, or `undefined` when it was empty. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

/**
 * Sends one request to `url` with the API key `key`, through the HTTP contract suite's
 * `ScimClient`: an object body is serialised (as `application/scim+json`), a string body sent
 * as it is.
 */
export async function sendTo(
  url: string,
  method: string,
  key: string,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<ExampleReply> {
  const reply = await new ScimClient(() => url, key).send(method, '', { body, headers });
  return { status: reply.status, headers: reply.headers, body: reply.json };
}
