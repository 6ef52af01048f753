// The memory store of host resource types against the resource store conformance cases, and the
// cases against stores that break the contract (they must fail, or they prove nothing).
import { describe, expect, it } from 'vitest';
import type { ResourceStore } from '../../src/index.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import { runStoreConformance } from '../../src/testing/index.js';
import { describeStoreConformance } from '../../src/testing/vitest.js';

describeStoreConformance('MemoryResourceStore', {
  resourceTypes: {
    Thing: () => new MemoryResourceStore(),
    'Thing with a log': () => new MemoryResourceStore({ events: new MemoryUserStore().events }),
  },
});

// A memory store with one flaw, as a custom store might have it.
function flawed(change: (store: MemoryResourceStore) => Partial<ResourceStore>): ResourceStore {
  const store = new MemoryResourceStore();
  return Object.assign(store, change(store));
}

describe('the resource store cases catch a broken store', () => {
  const failing = async (store: () => ResourceStore) =>
    (await runStoreConformance({ resourceTypes: { Thing: store } }))
      .filter((r) => r.status === 'failed')
      .map((r) => r.id);

  it('one that ignores the expected version', async () => {
    const store = () =>
      flawed((s) => ({
        replace: async (tenant, resource, options) => {
          const stored = await s.get(tenant, resource.id);
          const expectedVersion = stored?.meta.version ?? options.expectedVersion;
          return MemoryResourceStore.prototype.replace.call(s, tenant, resource, {
            ...options,
            expectedVersion,
          });
        },
      }));
    expect(await failing(store)).toEqual(['resource.versions']);
  });

  it('one that ignores unique keys', async () => {
    const store = () =>
      flawed((s) => ({
        create: (tenant, resource) =>
          MemoryResourceStore.prototype.create.call(s, tenant, resource, { uniqueKeys: {} }),
      }));
    expect(await failing(store)).toEqual(['resource.unique-keys']);
  });

  it("one that lists another tenant's resources", async () => {
    const store = () =>
      flawed((s) => ({
        list: (_tenant, query) => MemoryResourceStore.prototype.list.call(s, 'x', query),
      }));
    expect(await failing(store)).toContain('resource.list-paging');
  });
});
