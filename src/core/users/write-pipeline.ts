import type { OutboxMessage } from '../../contracts/outbox.js';
import type { UserStore } from '../../contracts/user-store.js';
import { scimErrors, type ScimError } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { EventHub } from '../events/event-hub.js';
import type { OutboxDispatcher } from '../outbox/outbox-dispatcher.js';
import { MAX_WRITE_ATTEMPTS, WriteLoop } from '../resources/write-loop.js';

/** See the write loop. */
export { MAX_WRITE_ATTEMPTS };
import { userEvents } from './user-events.js';

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
    return this.#loop
      .write(tenant, id, ifMatch, async (current, now) => step(current, now))
      .then(({ current, done }) => userWritten(current, done));
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

// The user a write answers with: the one written, or the current one when nothing changed.
function userWritten(current: ScimUser, done: PlannedWrite | null): ScimUser {
  return done === null ? current : done.user;
}

/** The 404 of a user that is not there. */
export function notFound(id: string): ScimError {
  return scimErrors.notFound(`User ${previewJson(id)} not found.`);
}
