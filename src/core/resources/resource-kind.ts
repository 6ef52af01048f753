import type { DirectoryEvent } from '../../contracts/event-log.js';
import type { DeleteOptions, ListQuery, StoreCapabilities } from '../../contracts/store-query.js';
import type { PatchContext } from '../../patch/patch-context.js';
import type { ResourceInput } from '../../schema/validate-resource-input.js';
import type { ScimEvent } from '../events/types.js';
import type { ResourcePage, StoredResource } from '../handlers/resource-endpoint.js';

/** The writeOnly values a request carried (a User's `password`): never stored. */
export type WriteOnlyValues = Readonly<Record<string, unknown>>;

/** What a PATCH plans: the write (or `null`: nothing changes) and the writeOnly values it set. */
export interface PatchStep<W> {
  readonly write: W | null;
  readonly writeOnly: WriteOnlyValues;
}

/**
 * Lists the directory events of a write from what it did (`D`), for the store to record in
 * the same atomic step: a type whose store learns what changed only inside the write (a
 * group's memberships) calls it there.
 */
export type EventRecorder<D> = (done: D) => readonly DirectoryEvent[];

/**
 * One resource type as the one {@link ResourceService} serves it: the binding to the type's
 * store contract, and the rules only this type has. `R` is the resource as the store keeps it,
 * `W` a planned write, `D` what a committed write reports. Everything every type shares (ids,
 * times, the per-id lock, If-Match, 404, retries, events after commit) is the service's.
 */
export interface ResourceKind<R extends StoredResource, W, D> {
  /** The type's name, as a 404's detail names it (`User`, `Group`, the host's). */
  readonly name: string;
  /** How a refused `sortBy` names the resources (`users`, `groups`, `classes`). */
  readonly plural: string;
  /** What the store declares it can do (filters, sorting, keyset paging). */
  readonly capabilities: StoreCapabilities | undefined;
  /**
   * Whether the answer to a PUT, or to a PATCH that shows the resource, is read again from the
   * store: a group's, whose store keeps the members apart.
   */
  readonly readsBack?: boolean;
  /** Whether the type's store records events in a log: without one, the core builds none. */
  readonly recordsEvents: boolean;
  /**
   * The member `type` a resource of this kind has in a group (`User`, `Group`), for the kinds
   * that can be members: their delete lists a `group.member_removed` per group it leaves.
   */
  readonly memberType?: 'User' | 'Group';

  /** Reads the current version, or `null`. */
  read(tenant: string, id: string): Promise<R | null>;
  /**
   * The version a write plans from, writes over and records in its events, from what `read`
   * answered: without what the store read beside the resource and the core never writes (a
   * User's `groups`). Omitted: the resource as read.
   */
  stored?(read: R): R;
  /** Lists resources, as `read` reads each. */
  list(tenant: string, query: ListQuery): Promise<ResourcePage<R>>;
  /** Stores a new resource as planned, with the events `record` lists (when the log is on). */
  insert(tenant: string, planned: W, record: EventRecorder<D> | undefined): Promise<D>;
  /**
   * Writes `planned` over `current` (see `WriteTarget.write`) with the events `record` lists;
   * `null` when the resource is gone, 412 when another write came first.
   */
  write(
    tenant: string,
    current: R,
    planned: W,
    ifMatch: string | undefined,
    record: EventRecorder<D> | undefined,
  ): Promise<D | null>;
  /**
   * Deletes the resource, with the events `options.events` lists; `false` when there is none;
   * 412 for a stale expected version.
   */
  remove(tenant: string, id: string, options: DeleteOptions): Promise<boolean>;

  /** Plans a new resource `id` from a validated POST body, created at `now`. */
  planCreate(tenant: string, id: string, input: ResourceInput, now: string): Promise<W>;
  /** Plans a PUT over `current`; `null` when nothing changes. */
  planReplace(tenant: string, current: R, input: ResourceInput, now: string): Promise<W | null>;
  /** Plans a PATCH over `current`, its message read in `ctx` (the caller's dialect rules). */
  planPatch(
    ctx: PatchContext,
    tenant: string,
    current: R,
    body: unknown,
    now: string,
  ): Promise<PatchStep<W>>;
  /** The resource a committed write leaves, as the answer shows it. */
  after(done: D): R;
  /**
   * The answer to a write, from the resource it left (`left`, from `after`) and the version it
   * was written over as `read` answered it (`null` for a creation): what the store read beside
   * that version, shown again (a User's `groups`). Omitted: `left`.
   */
  shown?(left: R, read: R | null): R;
  /** Lists the events of a committed write (`before` null: a creation; `done` null: a deletion). */
  events(tenant: string, at: string, id: string, before: R | null, done: D | null): ScimEvent[];
  /**
   * After a POST, PUT or PATCH that succeeded, written or not, and carried writeOnly values:
   * they go where the type sends them (the User's `password` to the host's hook).
   */
  delivered?(tenant: string, resource: R, writeOnly: WriteOnlyValues): Promise<void>;
}
