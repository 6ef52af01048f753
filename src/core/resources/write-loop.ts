import type { DeleteOptions } from '../../contracts/store-query.js';
import { isScimError, type ScimError } from '../../errors/index.js';
import type { StoredResource } from '../handlers/resource-endpoint.js';
import { assertIfMatch } from '../http/etag.js';
import { KeyedLock } from './keyed-lock.js';

/** How many times a write without If-Match re-reads and re-applies after a version conflict. */
export const MAX_WRITE_ATTEMPTS = 16;

/**
 * Plans a write from the current version of a resource and the time of the write: what to
 * store, or `null` when there is nothing to write. Throws a ScimError to refuse the write. It
 * may run more than once per write (once per attempt), each time on a newer version.
 */
export type WriteStep<R, W> = (current: R, now: string) => Promise<W | null>;

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
   * The version a write plans from, writes over and records, from what `read` answered: without
   * what a store reads beside a resource and the core never writes (a User's `groups`).
   * Omitted: the resource as read.
   */
  stored?(read: R): R;
  /**
   * Writes `planned` over `current`, whose version the write is based on, at the time `at`
   * (with its events); `null` when the resource is gone. Throws `versionConflict` (412) when
   * another write came first, where the write is conditional: always with `ifMatch`; without
   * it, a target may apply a change that does not depend on the version (a membership delta)
   * unconditionally.
   */
  write(
    tenant: string,
    current: R,
    planned: W,
    ifMatch: string | undefined,
    at: string,
  ): Promise<D | null>;
  /**
   * Whether a deletion reads the resource first even without If-Match: its events carry the
   * resource as it stood, so the delete then holds on the version read.
   */
  readonly readsBeforeDelete: boolean;
  /**
   * Deletes the resource (`before`, when it was read) at the time `at`; `false` when there is
   * none, else what to run once the deletion is committed (its events, say: only the store
   * knows what else a deletion removed); 412 for a stale expected version.
   */
  remove(
    tenant: string,
    id: string,
    options: DeleteOptions,
    before: R | null,
    at: string,
  ): Promise<false | (() => void)>;
  /** After a committed write (`done`): its events, say. */
  committed(tenant: string, at: string, id: string, before: R, done: D): void;
}

/** What a write resolves to: the version read last, and what the target reported. */
export interface WriteOutcome<R, D> {
  /** The version the step planned from (the one written over, when there was a write). */
  readonly current: R;
  /** `current` as the target's `read` answered it, with what the store read beside it. */
  readonly read: R;
  /** What the target reported of the committed write; `null` when the step planned nothing. */
  readonly done: D | null;
}

/**
 * The one read–apply–write loop every resource type is written through: it serialises writes
 * per id, checks If-Match, answers 404 for a resource that is not there, retries a write
 * without If-Match after a version conflict (a bounded number of times, with a random growing
 * wait), and reports what it committed to the target.
 */
export class WriteLoop<R extends StoredResource, W, D> {
  // Writes are serialised per id, whatever the tenant: ids are generated and unique across
  // tenants, and two tenants naming the same unknown id only wait for each other. The lock
  // saves retries; correctness rests on the store's version check.
  readonly #lock = new KeyedLock();

  constructor(
    private readonly target: WriteTarget<R, W, D>,
    private readonly clock: () => Date,
  ) {}

  /** Returns the time of a write, as stored in `meta`. */
  now(): string {
    return this.clock().toISOString();
  }

  /**
   * Changes the resource `id` as `step` plans it, atomically against concurrent writers: with
   * `ifMatch` a stale version answers 412; without it the step runs again on the version that
   * won, a bounded number of times. Throws 404 when there is no such resource.
   *
   * @see RFC 7644 §3.14
   */
  write(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    step: WriteStep<R, W>,
  ): Promise<WriteOutcome<R, D>> {
    return this.#lock.run(id, () => this.#attempts(tenant, id, ifMatch, step));
  }

  // The version a write works on: read (404 when gone, 412 for a stale If-Match), and as the
  // target plans from it (`stored`).
  async #readCurrent(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
  ): Promise<{ read: R; current: R }> {
    const read = await this.target.read(tenant, id);
    if (!read) throw this.target.notFound(id);
    assertIfMatch(ifMatch, read.meta.version);
    return { read, current: this.target.stored ? this.target.stored(read) : read };
  }

  async #attempts(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    step: WriteStep<R, W>,
  ): Promise<WriteOutcome<R, D>> {
    for (let attempt = 1; ; attempt++) {
      const { read, current } = await this.#readCurrent(tenant, id, ifMatch);
      const now = this.now();
      let done: D | null;
      try {
        const planned = await step(current, now);
        if (planned === null) return { current, read, done: null };
        done = await this.target.write(tenant, current, planned, ifMatch, now);
      } catch (error) {
        // A step may meet another writer too (a read of its own that is newer): 412 either way.
        const conflict = isScimError(error) && error.status === 412;
        if (!conflict || ifMatch !== undefined || attempt >= MAX_WRITE_ATTEMPTS) throw error;
        await backOff(attempt);
        continue;
      }
      if (done === null) throw this.target.notFound(id);
      this.target.committed(tenant, now, id, current, done);
      return { current, read, done };
    }
  }

  /**
   * Deletes the resource `id`, then reports it. Throws 404, or 412 for a stale If-Match. When
   * the resource is read first (If-Match, or a target whose events carry it), the delete holds
   * on the version read, and without If-Match runs again after a version conflict.
   */
  async delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    const reads = ifMatch !== undefined || this.target.readsBeforeDelete;
    for (let attempt = 1; ; attempt++) {
      let current: R | null = null;
      if (reads) ({ current } = await this.#readCurrent(tenant, id, ifMatch));
      const options = current === null ? {} : { expectedVersion: current.meta.version };
      const at = this.now();
      let removed: false | (() => void);
      try {
        removed = await this.target.remove(tenant, id, options, current, at);
      } catch (error) {
        const conflict = isScimError(error) && error.status === 412;
        if (!conflict || ifMatch !== undefined || attempt >= MAX_WRITE_ATTEMPTS) throw error;
        await backOff(attempt);
        continue;
      }
      if (!removed) throw this.target.notFound(id);
      removed();
      return;
    }
  }
}

// Another process won the race: wait a little (random, growing) so the two stop colliding.
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
}
