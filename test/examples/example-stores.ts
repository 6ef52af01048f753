import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreConfig } from '../../examples/server/config.js';

/** A store the example server runs on in a test, and why it is skipped, if it is. */
export interface ExampleStore {
  readonly name: string;
  /** Makes a fresh, empty store's configuration (a new PGlite folder, a new schema). */
  readonly store: () => StoreConfig;
  readonly skip: string | undefined;
}

const DATABASE_URL = process.env.SCIMKIT_TEST_DATABASE_URL;

/**
 * The memory store, PGlite in a fresh folder, and the PostgreSQL server in a fresh schema when
 * `SCIMKIT_TEST_DATABASE_URL` is set (skipped, saying so, when not). `label` names the folders
 * and schemas.
 */
export function exampleStores(label: string): ExampleStore[] {
  return [
    { name: 'memory', store: () => ({ kind: 'memory' }), skip: undefined },
    {
      name: 'PGlite',
      store: () => ({ kind: 'pglite', dataDir: mkdtempSync(join(tmpdir(), `scimkit-${label}-`)) }),
      skip: undefined,
    },
    {
      name: 'PostgreSQL server',
      store: () => ({
        kind: 'postgres',
        url: DATABASE_URL as string,
        schema: `${label.replace(/\W/g, '_')}_${process.pid}_${Date.now()}`,
      }),
      skip: DATABASE_URL ? undefined : 'SCIMKIT_TEST_DATABASE_URL is not set',
    },
  ];
}

/** Removes what a store of {@link exampleStores} left: the PGlite folder, the schema. */
export async function removeStore(config: StoreConfig | undefined): Promise<void> {
  if (config?.kind === 'pglite') rmSync(config.dataDir, { recursive: true, force: true });
  if (config?.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: config.url });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${config.schema}" CASCADE`);
    } finally {
      await client.end();
    }
  }
}
