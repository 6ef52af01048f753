import { describe, expect, it } from 'vitest';
import type { UserStore } from '../../src/contracts/user-store.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import {
  resourceStoreCases,
  runResourceStoreConformance,
  runStoreConformance,
  storeConformanceCases,
  type StoreConformanceResult,
} from '../../src/testing/index.js';

/** Wraps a working store and replaces some of its behaviour, to break it on purpose. */
function broken(change: (inner: MemoryUserStore) => Partial<UserStore>) {
  return (): UserStore => {
    const inner = new MemoryUserStore();
    const methods = change(inner);
    return {
      create: (...a) => inner.create(...a),
      get: (...a) => inner.get(...a),
      replace: (...a) => inner.replace(...a),
      delete: (...a) => inner.delete(...a),
      list: (...a) => inner.list(...a),
      ...methods,
    };
  };
}

const failedIds = (results: StoreConformanceResult[]) =>
  results.filter((r) => r.status === 'failed').map((r) => r.id);

/** Each broken store, and a case that must catch it. */
const mutants: [string, ReturnType<typeof broken>, string][] = [
  [
    'one tenant for all',
    broken((s) => ({
      get: (_t, id) => s.get('all', id),
      create: (_t, u, e) => s.create('all', u, e),
      replace: (_t, u, o) => s.replace('all', u, o),
      delete: (_t, id, o) => s.delete('all', id, o),
      list: (_t, q) => s.list('all', q),
    })),
    'tenant.get-is-null',
  ],
  [
    'replace ignores the version',
    broken((s) => ({
      replace: async (t, u, o) =>
        s.replace(t, u, {
          ...o,
          expectedVersion: (await s.get(t, u.id))?.meta.version ?? o.expectedVersion,
        }),
    })),
    'replace.stale-version-conflicts',
  ],
  [
    'delete ignores the version',
    broken((s) => ({ delete: (t, id) => s.delete(t, id) })),
    'delete.stale-version-conflicts',
  ],
  [
    'replace upserts',
    broken((s) => ({
      replace: async (t, u, o) => (await s.replace(t, u, o)) || (await s.create(t, u), true),
    })),
    'replace.missing-is-false',
  ],
  [
    'list in reverse',
    broken((s) => ({
      list: async (t, q) => {
        const r = await s.list(t, q);
        return { ...r, resources: [...r.resources].reverse() };
      },
    })),
    'list.ordered-by-id',
  ],
  [
    'totalResults is the page size',
    broken((s) => ({
      list: async (t, q) => {
        const r = await s.list(t, q);
        return { ...r, totalResults: r.resources.length };
      },
    })),
    'list.past-the-end-is-empty',
  ],
  [
    'get hands out its own object',
    broken((s) => {
      const kept = new Map<string, ScimUser | null>();
      return {
        get: async (t, id) => {
          // A mutable object the store keeps (the memory store hands out frozen ones).
          if (!kept.has(id)) kept.set(id, structuredClone(await s.get(t, id)));
          return kept.get(id) ?? null;
        },
      };
    }),
    'copies.get-returns-a-copy',
  ],
];

describe('the conformance suite catches broken stores', () => {
  it.each(mutants)('%s', async (_name, factory, expected) => {
    expect(failedIds(await runStoreConformance(factory))).toContain(expected);
  });
});

describe('the conformance suite itself', () => {
  it('gives every case a unique, stable-looking id and a title', () => {
    const ids = storeConformanceCases.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of storeConformanceCases) {
      expect(c.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
      expect(c.title.length).toBeGreaterThan(10);
    }
  });

  it('skips the cases named in options.skip, with the reason', async () => {
    const results = await runStoreConformance(() => new MemoryUserStore(), {
      skip: { 'list.count-zero': 'not today' },
    });
    expect(results.find((r) => r.id === 'list.count-zero')).toMatchObject({
      status: 'skipped',
      reason: 'not today',
    });
  });

  it('makes a fresh store for every case and closes each harness', async () => {
    let made = 0;
    let closed = 0;
    await runStoreConformance(() => {
      made += 1;
      return { store: new MemoryUserStore(), close: () => void (closed += 1) };
    });
    expect(made).toBe(storeConformanceCases.length);
    expect(closed).toBe(made);
  });
});

describe('the one entry point of the conformance suite', () => {
  it('runs the user, group, event log and subscriber cases and the host-type cases of every store given', async () => {
    const results = await runStoreConformance({
      users: () => new MemoryUserStore(),
      resourceTypes: {
        Class: () => new MemoryResourceStore(),
        Room: () => new MemoryResourceStore(),
      },
    });
    expect(failedIds(results)).toEqual([]);
    const ran = (prefix: string) => results.filter((r) => r.id.startsWith(prefix));
    expect(ran('create.').length).toBeGreaterThan(0);
    expect(ran('groups.').length).toBeGreaterThan(0);
    expect(ran('events.').length).toBeGreaterThan(0);
    expect(ran('subscriptions.').every((r) => r.status === 'passed')).toBe(true);
    const hosted = ran('resource.');
    expect(hosted.map((r) => r.store)).toEqual([
      ...resourceStoreCases.map(() => 'Class'),
      ...resourceStoreCases.map(() => 'Room'),
    ]);
    expect(results.filter((r) => r.store === undefined)).toHaveLength(storeConformanceCases.length);
  });

  it('runs only the host-type cases when no user store is given', async () => {
    const results = await runStoreConformance({
      resourceTypes: { Class: () => new MemoryResourceStore() },
    });
    expect(results.map((r) => r.id)).toEqual(resourceStoreCases.map((c) => c.id));
  });

  it('keeps the deprecated host-type runner, running the same cases', async () => {
    const results = await runResourceStoreConformance(
      () => new MemoryResourceStore({ events: new MemoryUserStore().events }),
    );
    expect(results.map((r) => [r.id, r.status])).toEqual(
      resourceStoreCases.map((c) => [c.id, 'passed']),
    );
  });
});
