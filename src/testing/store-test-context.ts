import type { UserStore } from '../contracts/user-store.js';
import { CaseSkipped } from './assertions.js';
import type { StoreFactory, StoreHarness, StoreTestContext } from './types.js';
import { createUserFactory } from './user-factory.js';

/** A context and the way to release it. */
export interface OpenedContext {
  readonly ctx: StoreTestContext;
  close(): Promise<void>;
}

function isStore(value: UserStore | StoreHarness): value is UserStore {
  return typeof (value as UserStore).create === 'function';
}

/**
 * Makes a fresh store with the factory and wraps it in a {@link StoreTestContext}. Tenants get
 * a random suffix so cases never see each other's users even on a shared database.
 *
 * @internal
 */
export async function openStoreTestContext(factory: StoreFactory): Promise<OpenedContext> {
  const made = await factory();
  const harness: StoreHarness = isStore(made) ? { store: made } : made;
  const suffix = Math.random().toString(36).slice(2, 8);
  const tenant = `tenant-a-${suffix}`;
  const started = Date.now();
  const { store, readStored } = harness;
  const ctx: StoreTestContext = {
    store,
    tenant,
    otherTenant: `tenant-b-${suffix}`,
    users: createUserFactory(),
    readStored,
    async read(id, inTenant = tenant) {
      return readStored ? await readStored(inTenant, id) : await store.get(inTenant, id);
    },
    // A minute ahead of the wall clock, so every message recorded so far is already due.
    at: (offsetMs) => new Date(started + 60_000 + offsetMs),
    skip(reason) {
      throw new CaseSkipped(reason);
    },
  };
  return { ctx, close: async () => void (await harness.close?.()) };
}
