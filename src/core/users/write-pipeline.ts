import type { OutboxMessage } from '../../contracts/outbox.js';
import type { DeleteOptions } from '../../contracts/store-query.js';
import type { UserStore } from '../../contracts/user-store.js';
import { isScimError, scimErrors, type ScimError } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { EventHub } from '../events/event-hub.js';
import type { StoredResource } from '../handlers/resource-endpoint.js';
import { assertIfMatch } from '../http/etag.js';
import type { OutboxDispatcher } from '../outbox/outbox-dispatcher.js';
import { KeyedLock } from './keyed-lock.js';
import { isoTimestamp } from './timestamp.js';
import { userEvents } from './user-events.js';

/** How many times a write without If-Match re-reads and re-applies after a version conflict. */
export const MAX_WRITE_ATTEMPTS = 16;

/** The next version of a user a {@link WriteStep} asks to store, and what goes with it. */
export interface PlannedWrite {
  /** The next version (from `assembleUser`), with the version after the current one. */
  readonly user: ScimUser;
  /** Outbox messages stored in the same write, sent once it is committed. */
  readonly outbox: readonly OutboxMessage[];
}

/**
 * Plans a write from the current version of a user and the time of the write: the next
 * version, or `null` when there is nothing to write. Throws a ScimError to refuse the write.
 * It may run more than once per write (once per attempt), each time on a newer version.
 */
export type WriteStep = (current: ScimUser, now: string) => PlannedWrite | null;

/**
 * What the write loop needs from one resource type's storage: read, write a planned change
 * over the version read, delete, and hear of what was committed. `W` is what a step plans,
 * `D` what a committed write reports.
 */
export interface WriteTarget<R extends StoredResource, W, D> {
  /** The 404 of a resource that is not there. */
  notFound(id: string): ScimError;
  /** Reads the current version, or `null`. */
  read(tenant: string, id: string): Promise<R | null>;
  /**
   * Writes `planned` over `current`, whose version the write is based on; `null` when the
   * resource is gone. Throws `versionConflict` (412) when another write came first, where the
   * write is conditional: always with `ifMatch`; without it, a target may apply a change that
   * does not depend on the version (a membership delta) unconditionally.
   */
  write(tenant: string, current: R, planned: W, ifMatch: string | undefined): Promise<D | null>;
  /** Deletes the resource; `false` when there is none; 412 for a stale expected version. */
  remove(tenant: string, id: string, options: DeleteOptions): Promise<boolean>;
  /** After a committed write (`done`) or deletion (`done` null): its events, say. */
  committed(tenant: string, at: string, id: string, before: R | null, done: D | null): void;
}

/**
 * The one read–apply–write loop every resource type is written through: it serialises writes
 * per id, checks If-Match, answers 404 for a resource that is not there, retries a write
 * without If-Match after a version conflict (a bounded number of times, with a random growing
 * wait), and reports what it committed to the target.
 */
export class WriteLoop<R extends StoredResource, W, D> {
  // Writes are serialised per id, whatever the tenant: ids are generated and unique across
  // tenants, and two tenants naming the same unknown id only wait for each other. The key is
  // the id string the request already holds, so no key is built and hashed per write. The lock
  // saves retries; correctness rests on the store's version check.
  readonly #lock = new KeyedLock();

  constructor(
    private readonly target: WriteTarget<R, W, D>,
    private readonly clock: () => Date,
  ) {}

  /** Returns the time of a write, as stored in `meta`. */
  now(): string {
    return isoTimestamp(this.clock());
  }

  /**
   * Changes the resource `id` as `step` plans it, atomically against concurrent writers: with
   * `ifMatch` a stale version answers 412; without it the step runs again on the version that
   * won, a bounded number of times. Resolves to what the target reports of the committed
   * write, or to the current version when the step planned nothing. Throws 404 when there is
   * no such resource.
   *
   * @see RFC 7644 §3.14
   */
  write(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    step: (current: R, now: string) => W | null,
  ): Promise<{ readonly current: R; readonly done: D | null }> {
    return this.writeFor(tenant, id, ifMatch, step, bothOf);
  }

  /**
   * {@link WriteLoop.write}, resolving to what `answer` makes of the version read last and what
   * the target reported (`null` when the step planned nothing): a caller that answers with one
   * of them gets it without another async layer (a promise and a turn) around the loop.
   */
  async writeFor<T>(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    step: (current: R, now: string) => W | null,
    answer: (current: R, done: D | null) => T,
  ): Promise<T> {
    const turn = this.#lock.acquire(id);
    if (turn !== undefined) await turn;
    try {
      for (let attempt = 1; ; attempt++) {
        // The store directly and the write inline, not in methods of their own: each async
        // layer is a promise and a turn of the microtask queue per write.
        const current = await this.target.read(tenant, id);
        if (!current) throw this.target.notFound(id);
        assertIfMatch(ifMatch, current.meta.version);
        const now = this.now();
        const planned = step(current, now);
        if (planned === null) return answer(current, null);
        let done: D | null;
        try {
          done = await this.target.write(tenant, current, planned, ifMatch);
        } catch (error) {
          const conflict = isScimError(error) && error.status === 412;
          if (!conflict || ifMatch !== undefined || attempt >= MAX_WRITE_ATTEMPTS) throw error;
          await backOff(attempt);
          continue;
        }
        if (done === null) throw this.target.notFound(id);
        this.target.committed(tenant, now, id, current, done);
        return answer(current, done);
      }
    } finally {
      this.#lock.release(id);
    }
  }

  /** Deletes the resource `id`, then reports it. Throws 404, or 412 for a stale If-Match. */
  async delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    let expectedVersion: string | undefined;
    if (ifMatch !== undefined) {
      const current = await this.target.read(tenant, id);
      if (!current) throw this.target.notFound(id);
      assertIfMatch(ifMatch, current.meta.version);
      expectedVersion = current.meta.version;
    }
    const options = expectedVersion === undefined ? {} : { expectedVersion };
    if (!(await this.target.remove(tenant, id, options))) throw this.target.notFound(id);
    this.target.committed(tenant, this.now(), id, null, null);
  }
}

/**
 * The one way users are written: creations, deletions, and every change of a stored user
 * (SCIM PUT and PATCH, the host API's activation and invitation) through the one
 * {@link WriteLoop}. It queues outbox messages with the write, and emits the lifecycle events
 * of what was written.
 */
export class WritePipeline {
  readonly #store: UserStore;
  readonly #events: EventHub;
  readonly #outbox: OutboxDispatcher | undefined;
  readonly #loop: WriteLoop<ScimUser, PlannedWrite, PlannedWrite>;

  constructor(
    store: UserStore,
    events: EventHub,
    outbox: OutboxDispatcher | undefined,
    now: () => Date,
  ) {
    this.#store = store;
    this.#events = events;
    this.#outbox = outbox;
    this.#loop = new WriteLoop<ScimUser, PlannedWrite, PlannedWrite>(
      {
        notFound,
        read: (tenant, id) => store.get(tenant, id),
        write(tenant, current, planned) {
          const { user, outbox: messages } = planned;
          const expectedVersion = current.meta.version;
          // The store's promise, mapped: no async layer of its own (a promise and a turn).
          // `Promise.resolve` hands a native promise back as it is, and takes a host store's
          // plain value as `await` did.
          return Promise.resolve(
            store.replace(
              tenant,
              user,
              messages.length > 0 ? { expectedVersion, outbox: messages } : { expectedVersion },
            ),
          ).then((replaced) => (replaced ? planned : null));
        },
        remove: (tenant, id, options) => store.delete(tenant, id, options),
        committed: (tenant, at, id, before, done) =>
          this.#written(tenant, at, id, before, done?.user ?? null, done?.outbox ?? []),
      },
      now,
    );
  }

  /** Returns the time of a write, as stored in `meta`. */
  now(): string {
    return this.#loop.now();
  }

  /** Stores a new user with its outbox messages, then emits `user.created`. */
  async create(tenant: string, user: ScimUser, outbox: readonly OutboxMessage[]): Promise<void> {
    await this.#store.create(tenant, user, { outbox });
    this.#written(tenant, user.meta.created, user.id, null, user, outbox);
  }

  /**
   * Changes the user `id` as `step` plans it (see {@link WriteLoop.write}). Returns the user
   * written, or the current one when the step planned nothing. Throws 404 when there is no
   * such user.
   *
   * @see RFC 7644 §3.14
   */
  write(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    step: WriteStep,
  ): Promise<ScimUser> {
    return this.#loop.writeFor(tenant, id, ifMatch, step, userWritten);
  }

  /** Deletes the user `id`, then emits `user.deleted`. Throws 404, or 412 for a stale If-Match. */
  delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    return this.#loop.delete(tenant, id, ifMatch);
  }

  // After a committed write: its events, and the dispatcher woken for what it queued.
  #written(
    tenant: string,
    at: string,
    id: string,
    before: ScimUser | null,
    after: ScimUser | null,
    outbox: readonly OutboxMessage[],
  ): void {
    if (this.#events.active) {
      for (const event of userEvents(tenant, at, id, before, after)) this.#events.emit(event);
    }
    if (outbox.length > 0) this.#outbox?.kick();
  }
}

// The pair {@link WriteLoop.write} resolves to.
function bothOf<R, D>(
  current: R,
  done: D | null,
): { readonly current: R; readonly done: D | null } {
  return { current, done };
}

// The user a write answers with: the one written, or the current one when nothing changed.
function userWritten(current: ScimUser, done: PlannedWrite | null): ScimUser {
  return done === null ? current : done.user;
}

/** The 404 of a user that is not there. */
export function notFound(id: string): ScimError {
  return scimErrors.notFound(`User ${previewJson(id)} not found.`);
}

// Another process won the race: wait a little (random, growing) so the two stop colliding.
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
}
