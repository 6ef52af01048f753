import { CONFORMANCE_THING_SCHEMA } from '../schema/urns.js';
import type { DirectoryEvent } from '../contracts/event-log.js';
import type { ResourceStore, ScimResource } from '../contracts/resource-store.js';
import { parseFilter } from '../filter/parse-filter.js';
import { parseAttributePath } from '../schema/attribute-path.js';
import { externalIdAttribute, idAttribute, metaAttribute } from '../schema/common-attributes.js';
import { defineAttribute } from '../schema/define-attribute.js';
import { compileResourceType, type CompiledResourceType } from '../schema/resource-type.js';
import { nextVersion } from '../schema/version.js';
import { check } from './assertions.js';
import { readAll } from './cases/events.js';

const SCHEMA = CONFORMANCE_THING_SCHEMA;

/** The resource type the cases write: `displayName`, a unique `code` and an integer `rank`. */
export const conformanceThingType: CompiledResourceType = compileResourceType({
  name: 'Thing',
  endpoint: '/Things',
  schema: {
    id: SCHEMA,
    name: 'Thing',
    description: 'A resource of the resource store conformance cases',
    attributes: [
      idAttribute,
      externalIdAttribute,
      defineAttribute('displayName', 'string', { required: true }),
      defineAttribute('code', 'string', { uniqueness: 'server' }),
      defineAttribute('rank', 'integer'),
      metaAttribute('Thing'),
    ],
  },
});

/** What a resource store case receives: a fresh store, two tenants and a resource maker. */
export interface ResourceStoreTestContext {
  /** The store under test, fresh for the case. */
  readonly store: ResourceStore;
  /** The tenant the case writes to. */
  readonly tenant: string;
  /** A second tenant, whose resources must stay invisible from {@link tenant}. */
  readonly otherTenant: string;
  /** The compiled type of the resources made (list queries carry it). */
  readonly type: CompiledResourceType;
  /** Makes a valid resource with the next time-ordered id; `values` are its attributes. */
  make(values: Readonly<Record<string, unknown>>): ScimResource;
  /** Returns the next version of `resource` with `changes` applied. */
  next(resource: ScimResource, changes: Readonly<Record<string, unknown>>): ScimResource;
  /** Ends the case as skipped (a sort the store does not declare). */
  skip(reason: string): never;
}

/** One case of the resource store conformance suite. */
export interface ResourceStoreCase {
  /** A stable id such as `resource.unique-keys`. */
  readonly id: string;
  /** What the store must do, in one sentence. */
  readonly title: string;
  /** Runs the case; throws when the store does not behave. */
  run(ctx: ResourceStoreTestContext): Promise<void>;
}

const keys = (r: ScimResource) =>
  typeof r.code === 'string' ? { code: r.code.toLowerCase() } : {};
const ids = (list: readonly ScimResource[]) => list.map((r) => r.id);
const query = (ctx: ResourceStoreTestContext, extra: object = {}) => ({
  startIndex: 1,
  count: 100,
  resourceType: ctx.type,
  ...extra,
});

/**
 * The behaviour every `ResourceStore` (a host resource type's store) must have, as data: run
 * them with `runResourceStoreConformance` or `describeResourceStoreConformance`.
 */
export const resourceStoreCases: readonly ResourceStoreCase[] = [
  {
    id: 'resource.create-get',
    title: 'a created resource reads back as written, in its tenant only',
    async run(ctx) {
      const { store, tenant, otherTenant } = ctx;
      const thing = ctx.make({ displayName: 'One', rank: 1 });
      await store.create(tenant, thing, { uniqueKeys: keys(thing) });
      check.deepEqual(await store.get(tenant, thing.id), thing, 'the resource read back');
      check.equal(await store.get(otherTenant, thing.id), null, 'read from another tenant');
      check.equal(await store.get(tenant, 'no-such-id'), null, 'an unknown id');
    },
  },
  {
    id: 'resource.versions',
    title: 'replace and delete write only over the expected version; false for an unknown id',
    async run(ctx) {
      const { store, tenant } = ctx;
      const v1 = ctx.make({ displayName: 'One' });
      await store.create(tenant, v1, { uniqueKeys: {} });
      const v2 = ctx.next(v1, { displayName: 'Two' });
      check.equal(
        await store.replace(tenant, v2, { expectedVersion: v1.meta.version, uniqueKeys: {} }),
        true,
        'replace over v1',
      );
      const late = ctx.next(v1, { displayName: 'Late' });
      await check.rejects(
        store.replace(tenant, late, { expectedVersion: v1.meta.version, uniqueKeys: {} }),
        412,
        undefined,
        'a second replace over v1',
      );
      await check.rejects(
        store.delete(tenant, v1.id, { expectedVersion: v1.meta.version }),
        412,
        undefined,
        'a delete over v1',
      );
      check.deepEqual(await store.get(tenant, v1.id), v2, 'what is stored');
      const ghost = ctx.make({ displayName: 'Ghost' });
      check.equal(
        await store.replace(tenant, ghost, { expectedVersion: 'W/"1"', uniqueKeys: {} }),
        false,
        'replace of an unknown id',
      );
      check.equal(await store.delete(ctx.otherTenant, v1.id), false, 'delete from another tenant');
      check.equal(
        await store.delete(tenant, v1.id, { expectedVersion: v2.meta.version }),
        true,
        'delete',
      );
      check.equal(await store.get(tenant, v1.id), null, 'read after delete');
      check.equal(await store.delete(tenant, v1.id), false, 'a second delete');
    },
  },
  {
    id: 'resource.unique-keys',
    title: 'a unique key is held by one resource per tenant, and freed by replace and delete',
    async run(ctx) {
      const { store, tenant, otherTenant } = ctx;
      const a = ctx.make({ displayName: 'A', code: 'X-1' });
      await store.create(tenant, a, { uniqueKeys: keys(a) });
      const b = ctx.make({ displayName: 'B', code: 'x-1' });
      await check.rejects(
        store.create(tenant, b, { uniqueKeys: keys(b) }),
        409,
        'uniqueness',
        'same key',
      );
      check.equal(await store.get(tenant, b.id), null, 'the refused resource');
      await store.create(otherTenant, b, { uniqueKeys: keys(b) });
      const c = ctx.make({ displayName: 'C', code: 'Y-1' });
      await store.create(tenant, c, { uniqueKeys: keys(c) });
      const cTaken = ctx.next(c, { code: 'X-1' });
      await check.rejects(
        store.replace(tenant, cTaken, {
          expectedVersion: c.meta.version,
          uniqueKeys: keys(cTaken),
        }),
        409,
        'uniqueness',
        'replace onto a taken key',
      );
      const a2 = ctx.next(a, { code: 'X-2' });
      await store.replace(tenant, a2, { expectedVersion: a.meta.version, uniqueKeys: keys(a2) });
      await store.replace(tenant, cTaken, {
        expectedVersion: c.meta.version,
        uniqueKeys: keys(cTaken),
      });
      await store.delete(tenant, a.id);
      const d = ctx.make({ displayName: 'D', code: 'X-2' });
      await store.create(tenant, d, { uniqueKeys: keys(d) });
    },
  },
  {
    id: 'resource.list-paging',
    title: 'a list pages by startIndex and count in id order, counting every match of the tenant',
    async run(ctx) {
      const { store, tenant, otherTenant } = ctx;
      const made = [1, 2, 3, 4, 5].map((rank) => ctx.make({ displayName: `T${rank}`, rank }));
      for (const r of made) await store.create(tenant, r, { uniqueKeys: {} });
      await store.create(otherTenant, ctx.make({ displayName: 'Other' }), { uniqueKeys: {} });
      const page = await store.list(tenant, query(ctx, { startIndex: 2, count: 2 }));
      check.equal(page.totalResults, 5, 'totalResults');
      check.deepEqual(ids(page.resources), ids(made.slice(1, 3)), 'the page');
      const filter = parseFilter('rank ge 4 or displayName eq "t1"');
      const supports = store.capabilities?.supportsFilter;
      if (supports && !supports(filter)) ctx.skip('the store does not declare this filter');
      const found = await store.list(tenant, query(ctx, { filter }));
      check.deepEqual(
        ids(found.resources),
        ids([made[0], made[3], made[4]] as ScimResource[]),
        'filtered',
      );
      check.equal(found.totalResults, 3, 'filtered totalResults');
    },
  },
  {
    id: 'resource.list-sort',
    title: 'a list sorted by an attribute the store declares is in that order, ties by id',
    async run(ctx) {
      const { store, tenant } = ctx;
      const sortBy = parseAttributePath('rank');
      if (!sortBy || !store.capabilities?.supportsSort?.(sortBy))
        ctx.skip('the store does not declare sorting by rank');
      const made = [2, 1, 2, 3].map((rank, i) => ctx.make({ displayName: `S${i}`, rank }));
      for (const r of made) await store.create(tenant, r, { uniqueKeys: {} });
      const sorted = await store.list(tenant, query(ctx, { sortBy, sortOrder: 'descending' }));
      const order = [made[3], made[0], made[2], made[1]] as ScimResource[];
      check.deepEqual(ids(sorted.resources), ids(order), 'descending by rank, ties by id');
    },
  },
  {
    id: 'resource.keyset-paging',
    title: 'a store that declares keyset paging pages after and before a place, with `more`',
    async run(ctx) {
      const { store, tenant } = ctx;
      if (store.capabilities?.keysetPaging !== true) ctx.skip('the store does not page by keyset');
      const made = [1, 2, 3, 4, 5].map((rank) => ctx.make({ displayName: `K${rank}`, rank }));
      for (const r of made) await store.create(tenant, r, { uniqueKeys: {} });
      const first = await store.list(tenant, query(ctx, { count: 2, seek: {} }));
      check.deepEqual(ids(first.resources), ids(made.slice(0, 2)), 'the first page');
      check.equal(first.seek?.more, true, 'more after the first page');
      const last = first.seek?.last;
      check.ok(last !== undefined, 'the first page reports its last place');
      // The place stays where it was when its resource is gone.
      await store.delete(tenant, last.id);
      const second = await store.list(tenant, query(ctx, { count: 2, seek: { from: last } }));
      check.deepEqual(ids(second.resources), ids(made.slice(2, 4)), 'the page after it');
      const from = second.seek?.first;
      check.ok(from !== undefined, 'the second page reports its first place');
      const back = await store.list(
        tenant,
        query(ctx, { count: 2, seek: { from, direction: 'backward' } }),
      );
      check.deepEqual(ids(back.resources), ids(made.slice(0, 1)), 'the page before it');
      check.equal(back.seek?.more, false, 'nothing before the first resource');
      check.equal(back.totalResults, 4, 'totalResults');
    },
  },
  {
    id: 'resource.events',
    title: 'a store with a log lists the events of its writes, and none of a refused write',
    async run(ctx) {
      const { store, tenant } = ctx;
      const log = store.events ?? ctx.skip('the store records no events (no `events`)');
      let n = 0;
      const event = (type: DirectoryEvent['type'], id: string): DirectoryEvent => ({
        id: `evt-${tenant}-${(n += 1)}`,
        type,
        tenant,
        occurredAt: new Date().toISOString(),
        data: { id, resourceType: 'Thing' },
      });
      const one = ctx.make({ displayName: 'One', code: 'e-1' });
      const created = event('thing.created', one.id);
      await store.create(tenant, one, { uniqueKeys: keys(one), events: [created] });
      const twin = ctx.make({ displayName: 'Twin', code: 'e-1' });
      await check.rejects(
        store.create(tenant, twin, {
          uniqueKeys: keys(twin),
          events: [event('thing.created', twin.id)],
        }),
        409,
        'uniqueness',
        'create with a taken key',
      );
      const two = ctx.next(one, { displayName: 'Two' });
      const updated = event('thing.updated', one.id);
      await store.replace(tenant, two, {
        expectedVersion: one.meta.version,
        uniqueKeys: keys(two),
        events: [updated],
      });
      await check.rejects(
        store.replace(tenant, ctx.next(one, { displayName: 'Late' }), {
          expectedVersion: one.meta.version,
          uniqueKeys: {},
          events: [event('thing.updated', one.id)],
        }),
        412,
        undefined,
        'a replace over a stale version',
      );
      const deleted = event('thing.deleted', one.id);
      await store.delete(tenant, one.id, { events: [deleted] });
      check.equal(
        await store.delete(tenant, one.id, { events: [event('thing.deleted', one.id)] }),
        false,
        'a second delete',
      );
      // Read as the user cases read: another open transaction may hold the log back a moment.
      const listed = await readAll(log, tenant, undefined, 10, 3);
      check.deepEqual(
        listed.map(({ cursor: _cursor, ...e }) => e),
        [created, updated, deleted],
        'events listed',
      );
    },
  },
];

/** Makes resources of {@link conformanceThingType} with increasing ids, in a case's tenant. */
export function thingMaker(): Pick<ResourceStoreTestContext, 'make' | 'next'> {
  let n = 0;
  const stamp = '2026-01-01T00:00:00.000Z';
  return {
    make(values) {
      n += 1;
      const id = `thing-${String(n).padStart(6, '0')}`;
      const meta = { resourceType: 'Thing', created: stamp, lastModified: stamp, version: 'W/"1"' };
      return { schemas: [SCHEMA], id, ...values, meta };
    },
    next(resource, changes) {
      const meta = { ...resource.meta, version: nextVersion(resource.meta.version) };
      const { meta: _meta, ...rest } = resource;
      return { ...rest, ...changes, meta } as ScimResource;
    },
  };
}
