/** The store the Bun and Deno entries serve, by name: the memory store or PostgreSQL on PGlite. */
import type { UserStore } from 'scimkit';
import { MemoryUserStore } from 'scimkit/memory';

/** Which store an entry runs on. */
export type StoreKind = 'memory' | 'pglite';

/** Opens the store named `kind`; PGlite is loaded only when asked for. */
export async function openStore(kind: string): Promise<UserStore> {
  if (kind === 'memory') return new MemoryUserStore();
  if (kind !== 'pglite') throw new Error(`unknown store ${kind}`);
  const { PGlite } = await import('@electric-sql/pglite');
  const { PostgresUserStore, pgliteExecutor } = await import('scimkit/postgres');
  const store = new PostgresUserStore({ executor: pgliteExecutor(new PGlite()) });
  await store.migrate();
  return store;
}
