import type { DeleteOptions, ListQuery } from '../../contracts/store-query.js';
import { scimErrors, type ScimError } from '../../errors/index.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { previewJson } from '../../json/preview-json.js';
import type { PatchContext } from '../../patch/patch-context.js';
import type { Projection } from '../../schema/project-resource.js';
import type { ResourceInput } from '../../schema/validate-resource-input.js';
import type { EventHub } from '../events/event-hub.js';
import type {
  EndpointService,
  ResourcePage,
  StoredResource,
} from '../handlers/resource-endpoint.js';
import { directoryEvents, directoryEventType } from '../events/directory-events.js';
import type { ScimEvent } from '../events/types.js';
import { emitEvents } from './events.js';
import { newId } from './new-id.js';
import type { ResourceKind, WriteOnlyValues } from './resource-kind.js';
import { assertStoreFilters, assertStoreSorts } from './store-support.js';
import { WriteEvents } from './write-events.js';
import { WriteLoop, type WriteOutcome, type WriteStep } from './write-loop.js';

/** A committed write as the service's loop reports it: what the kind reported, and its events. */
interface Written<D> {
  readonly done: D;
  /** The events the store recorded with this write, when it recorded them for this `done`. */
  readonly events: readonly ScimEvent[] | undefined;
}

/**
 * The operations of one resource type (the User, the Group, a type of the host's), behind the
 * SCIM endpoints and the host API. What differs by type is its {@link ResourceKind}; here is
 * what every type shares: new ids and write times, one {@link WriteLoop} (per-id lock,
 * If-Match, 404, retries after a version conflict), the store's declared capabilities, the
 * directory events each write hands its store to record with it (when the store keeps a log),
 * and the in-process events of what was committed (`scim.on`).
 *
 * One service serves every compatibility profile: a PATCH names the context (dialect rules,
 * rule trace) it is read in, so every profile's writes to a resource queue on the same lock
 * (see {@link ResourceService.inContext}).
 */
export class ResourceService<R extends StoredResource, W, D> {
  readonly #kind: ResourceKind<R, W, D>;
  readonly #events: EventHub;
  readonly #clock: () => Date;
  readonly #loop: WriteLoop<R, W, Written<D>>;

  constructor(kind: ResourceKind<R, W, D>, events: EventHub, clock: () => Date) {
    this.#kind = kind;
    this.#events = events;
    this.#clock = clock;
    const stored = kind.stored?.bind(kind);
    this.#loop = new WriteLoop<R, W, Written<D>>(
      {
        notFound: (id) => this.notFound(id),
        read: (tenant, id) => kind.read(tenant, id),
        ...(stored && { stored }),
        write: async (tenant, current, planned, ifMatch, at) => {
          const events = this.#writeEvents(tenant, at, current.id, current);
          const done = await kind.write(tenant, current, planned, ifMatch, events?.record);
          return done === null ? null : { done, events: events?.of(done) };
        },
        readsBeforeDelete: kind.recordsEvents,
        remove: (tenant, id, options, before, at) => this.#remove(tenant, id, options, before, at),
        committed: (tenant, at, id, before, { done, events }) =>
          this.#committed(() => events ?? kind.events(tenant, at, id, before, done)),
      },
      clock,
    );
  }

  /** Whether the store pages by keyset, so the endpoint answers RFC 9865 cursors. */
  get keysetPaging(): boolean {
    return this.#kind.capabilities?.keysetPaging === true;
  }

  /** The 404 of a resource of this type that is not there. */
  notFound(id: string): ScimError {
    return scimErrors.notFound(`${this.#kind.name} ${previewJson(id)} not found.`);
  }

  /** Creates a resource from a validated POST body. */
  async create(tenant: string, input: ResourceInput): Promise<R> {
    const date = this.#clock();
    const now = date.toISOString();
    const id = newId(date.getTime());
    const planned = await this.#kind.planCreate(tenant, id, input, now);
    const events = this.#writeEvents(tenant, now, id, null);
    const done = await this.#kind.insert(tenant, planned, events?.record);
    const created = this.#shown(this.#kind.after(done), null);
    this.#committed(() => events?.of(done) ?? this.#kind.events(tenant, now, id, null, done));
    const writeOnly = writeOnlyOf(input);
    if (carries(writeOnly)) await this.#kind.delivered?.(tenant, created, writeOnly);
    return created;
  }

  /** Reads a resource or throws 404. */
  async get(tenant: string, id: string): Promise<R> {
    const resource = await this.#kind.read(tenant, id);
    if (!resource) throw this.notFound(id);
    return resource;
  }

  /** Lists resources, as `get` reads each. */
  async list(tenant: string, query: ListQuery): Promise<ResourcePage<R>> {
    return await this.#kind.list(tenant, query);
  }

  /** Throws 400 `invalidFilter` when the store declares it cannot answer `filter`. */
  assertFilterSupported(filter: Filter, text: string): void {
    assertStoreFilters(this.#kind.capabilities, filter, text);
  }

  /** Throws 400 `invalidValue` when the store declares it cannot sort by `path`. */
  assertSortSupported(path: AttributePath, text: string): void {
    assertStoreSorts(this.#kind.capabilities, path, text, this.#kind.plural);
  }

  /** PUT: replaces what a client may write, as the type's rules say (404, 412). */
  async replace(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    input: ResourceInput,
  ): Promise<R> {
    const written = this.#left(
      await this.#loop.write(tenant, id, ifMatch, (current, now) =>
        this.#kind.planReplace(tenant, current, input, now),
      ),
    );
    const writeOnly = writeOnlyOf(input);
    if (carries(writeOnly)) await this.#kind.delivered?.(tenant, written, writeOnly);
    return this.#kind.readsBack ? await this.get(tenant, id) : written;
  }

  /**
   * PATCH, read in `ctx` (the dialect rules of the caller's profile): all operations or none; a
   * PATCH that changes nothing writes nothing. `shown` is what the response will show,
   * `undefined` when it has no body.
   */
  async patch(
    ctx: PatchContext,
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    body: unknown,
    shown?: Projection,
  ): Promise<R> {
    let writeOnly: WriteOnlyValues = {};
    const written = this.#left(
      await this.#loop.write(tenant, id, ifMatch, async (current, now) => {
        const step = await this.#kind.planPatch(ctx, tenant, current, body, now);
        // From the attempt that is written: the loop may plan again on a newer version.
        writeOnly = step.writeOnly;
        return step.write;
      }),
    );
    if (carries(writeOnly)) await this.#kind.delivered?.(tenant, written, writeOnly);
    return this.#kind.readsBack && shown !== undefined ? await this.get(tenant, id) : written;
  }

  /** Deletes a resource (404, 412 for a stale If-Match), then reports it. */
  async delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    await this.#loop.delete(tenant, id, ifMatch);
  }

  /**
   * Changes the resource `id` as `step` plans it, through the one write loop: the type's own
   * writes of the host API (activating a user, adding members), which no SCIM request makes.
   */
  async update(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    step: WriteStep<R, W>,
  ): Promise<WriteOutcome<R, D>> {
    const { current, read, done } = await this.#loop.write(tenant, id, ifMatch, step);
    return { current, read, done: done === null ? null : done.done };
  }

  /** This service as one profile's endpoints call it: its PATCHes are read in `ctx`. */
  inContext(ctx: PatchContext): EndpointService<R> {
    return {
      create: (tenant, input) => this.create(tenant, input),
      get: (tenant, id) => this.get(tenant, id),
      list: (tenant, query) => this.list(tenant, query),
      assertFilterSupported: (filter, text) => this.assertFilterSupported(filter, text),
      assertSortSupported: (path, text) => this.assertSortSupported(path, text),
      replace: (tenant, id, ifMatch, input) => this.replace(tenant, id, ifMatch, input),
      patch: (tenant, id, ifMatch, body, shown) =>
        this.patch(ctx, tenant, id, ifMatch, body, shown),
      delete: (tenant, id, ifMatch) => this.delete(tenant, id, ifMatch),
    };
  }

  // The answer to a write: the resource written, or the one read when nothing changed, with
  // what the store read beside the version read.
  #left({ read, done }: WriteOutcome<R, Written<D>>): R {
    return done === null ? read : this.#shown(this.#kind.after(done.done), read);
  }

  // The answer to a write that left `left` over `read` (null: a creation), as the kind shows it.
  #shown(left: R, read: R | null): R {
    return this.#kind.shown ? this.#kind.shown(left, read) : left;
  }

  // The events of a write over `before` (null: a creation), for the store to record with it;
  // none when the store keeps no log.
  #writeEvents(
    tenant: string,
    at: string,
    id: string,
    before: R | null,
  ): WriteEvents<D> | undefined {
    if (!this.#kind.recordsEvents) return undefined;
    const kind = this.#kind;
    return new WriteEvents((done) => kind.events(tenant, at, id, before, done), kind.name);
  }

  // Deletes `id` through the store, with the deletion's events when the store keeps a log
  // and `before` was read (they carry the resource as it stood); then, once committed, the
  // in-process events of the deletion and of what it removed: for a member, the memberships
  // the store found it in, which only the store knows and reports (and records, with a log).
  async #remove(
    tenant: string,
    id: string,
    options: DeleteOptions,
    before: R | null,
    at: string,
  ): Promise<false | (() => void)> {
    const kind = this.#kind;
    const records = before !== null && kind.recordsEvents;
    const events = records ? kind.events(tenant, at, id, before, null) : undefined;
    let removals: readonly ScimEvent[] = [];
    const resource = before as unknown as Readonly<Record<string, unknown>> & { id: string };
    const removed = await kind.remove(tenant, id, {
      ...options,
      ...(events && { events: directoryEvents(events, kind.name, resource) }),
      ...(kind.memberType !== undefined && {
        membershipEvents: (groupIds: readonly string[]) => {
          removals = this.#removals(tenant, at, id, groupIds);
          return records ? directoryEvents(removals, 'Group', null) : [];
        },
      }),
    });
    if (!removed) return false;
    return () =>
      this.#committed(() => [...(events ?? kind.events(tenant, at, id, null, null)), ...removals]);
  }

  // The `group.member_removed` of a deleted member (this kind's resource `id`), one per group
  // the store removed it from, in the order the store lists them.
  #removals(tenant: string, at: string, id: string, groupIds: readonly string[]): ScimEvent[] {
    const type = this.#kind.memberType;
    if (type === undefined) return [];
    const member = { value: id, type };
    return groupIds.map((groupId) => ({
      type: 'group.member_removed',
      tenant,
      at,
      groupId,
      member,
    }));
  }

  // After a committed write or deletion: its events, as `list` gives them (those the store
  // recorded, or listed now), and a wake for the durable subscribers of the types it recorded;
  // listed once for both, and only when asked.
  #committed(list: () => readonly ScimEvent[]): void {
    const kind = this.#kind;
    let listed: readonly ScimEvent[] | undefined;
    const once = () => (listed ??= list());
    emitEvents(this.#events, once);
    this.#events.committed(() => once().map((event) => directoryEventType(event.type, kind.name)));
  }
}

// The writeOnly values of a validated POST or PUT body.
function writeOnlyOf(input: ResourceInput): WriteOnlyValues {
  return input.password === undefined ? {} : { password: input.password };
}

// Whether a write carried writeOnly values: most carry none, and then nothing is handed over.
function carries(writeOnly: WriteOnlyValues): boolean {
  return Object.keys(writeOnly).length > 0;
}
