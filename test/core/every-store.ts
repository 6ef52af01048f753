import type { UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { backends } from '../stores/postgres/harness.js';

/** A store opened for one test file, and how to let it go. */
export interface OpenedStore {
  readonly store: UserStore;
  close(): Promise<void>;
}

/**
 * Every store a behaviour must hold on: memory, PGlite, and the PostgreSQL server when
 * SCIMKIT_TEST_DATABASE_URL is set (each in a fresh schema), for `describe.each`.
 */
export const everyStore: { name: string; open: () => Promise<OpenedStore> }[] = [
  { name: 'memory', open: async () => ({ store: new MemoryUserStore(), close: async () => {} }) },
  ...backends.map(({ name, open }) => ({
    name,
    open: async () => {
      const backend = await open();
      return { store: backend.newStore(), close: () => backend.close() };
    },
  })),
];
