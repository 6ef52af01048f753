import type { OutboxMessage } from '../../contracts/outbox.js';
import type { UserStore } from '../../contracts/user-store.js';
import { isScimError, scimErrors } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { EventHub } from '../events/event-hub.js';
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
 * The one way users are written: creations, deletions, and every change of a stored user
 * (SCIM PUT and PATCH, the host API's activation and invitation) through one read–apply–write
 * loop. It checks If-Match, answers 404 for a user that is not there, retries a write without
 * If-Match after a version conflict, queues outbox messages with the write, and emits the
 * lifecycle events of what was written.
 */
export class WritePipeline {
  readonly #store: UserStore;
  readonly #events: EventHub;
  readonly #outbox: OutboxDispatcher;
  readonly #now: () => Date;
  // Writes are serialised per id, whatever the tenant: ids are generated and unique across
  // tenants, and two tenants naming the same unknown id only wait for each other. The key is
  // the id string the request already holds, so no key is built and hashed per write. The lock
  // saves retries; correctness rests on the store's version check.
  readonly #lock = new KeyedLock();

  constructor(store: UserStore, events: EventHub, outbox: OutboxDispatcher, now: () => Date) {
    this.#store = store;
    this.#events = events;
    this.#outbox = outbox;
    this.#now = now;
  }

  /** Returns the time of a write, as stored in `meta`. */
  now(): string {
    return isoTimestamp(this.#now());
  }

  /** Stores a new user with its outbox messages, then emits `user.created`. */
  async create(tenant: string, user: ScimUser, outbox: readonly OutboxMessage[]): Promise<void> {
    await this.#store.create(tenant, user, { outbox });
    this.#written(tenant, user.meta.created, user.id, null, user, outbox);
  }

  /**
   * Changes the user `id` as `step` plans it, atomically against concurrent writers: with
   * `ifMatch` a stale version answers 412; without it the step runs again on the version that
   * won, a bounded number of times. Returns the user written, or the current one when the step
   * planned nothing. Throws 404 when there is no such user.
   *
   * @see RFC 7644 §3.14
   */
  async write(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    step: WriteStep,
  ): Promise<ScimUser> {
    const turn = this.#lock.acquire(id);
    if (turn !== undefined) await turn;
    try {
      for (let attempt = 1; ; attempt++) {
        // The store directly and the write inline, not in methods of their own: each async
        // layer is a promise and a turn of the microtask queue per write.
        const current = await this.#store.get(tenant, id);
        if (!current) throw notFound(id);
        assertIfMatch(ifMatch, current.meta.version);
        const now = this.now();
        const planned = step(current, now);
        if (planned === null) return current;
        const { user, outbox } = planned;
        const expectedVersion = current.meta.version;
        try {
          const replaced = await this.#store.replace(
            tenant,
            user,
            outbox.length > 0 ? { expectedVersion, outbox } : { expectedVersion },
          );
          if (!replaced) throw notFound(id);
        } catch (error) {
          const conflict = isScimError(error) && error.status === 412;
          if (!conflict || ifMatch !== undefined || attempt >= MAX_WRITE_ATTEMPTS) throw error;
          await backOff(attempt);
          continue;
        }
        this.#written(tenant, now, id, current, user, outbox);
        return user;
      }
    } finally {
      this.#lock.release(id);
    }
  }

  /** Deletes the user `id`, then emits `user.deleted`. Throws 404, or 412 for a stale If-Match. */
  async delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    let expectedVersion: string | undefined;
    if (ifMatch !== undefined) {
      const current = await this.#store.get(tenant, id);
      if (!current) throw notFound(id);
      assertIfMatch(ifMatch, current.meta.version);
      expectedVersion = current.meta.version;
    }
    const options = expectedVersion === undefined ? {} : { expectedVersion };
    if (!(await this.#store.delete(tenant, id, options))) throw notFound(id);
    this.#written(tenant, this.now(), id, null, null, []);
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
    if (outbox.length > 0) this.#outbox.kick();
  }
}

/** The 404 of a user that is not there. */
export function notFound(id: string) {
  return scimErrors.notFound(`User ${previewJson(id)} not found.`);
}

// Another process won the race: wait a little (random, growing) so the two stop colliding.
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
}
