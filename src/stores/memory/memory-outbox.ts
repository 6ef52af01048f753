import type { OutboxMessage, OutboxStore, PendingOutboxMessage } from '../../contracts/outbox.js';
import { cloneJson, flatString } from './clone-json.js';

/** Where a message of the memory outbox stands. */
export type MemoryOutboxState = 'pending' | 'sent' | 'failed';

/** A read-only view of one message of the memory outbox, for tests and development servers. */
export interface MemoryOutboxEntry {
  /** The message as recorded with the user's write. */
  readonly message: OutboxMessage;
  /** `pending` until delivered (`sent`) or given up (`failed`). */
  readonly state: MemoryOutboxState;
  /** Failed attempts so far. */
  readonly attempts: number;
  /** When a pending message is due again after a failure (ISO 8601); absent: due now. */
  readonly dueAt?: string;
  /** Until when a claim hides the message (ISO 8601). */
  readonly leaseUntil?: string;
  /** When it was delivered (ISO 8601), for `sent`. */
  readonly sentAt?: string;
  /** The last failure, for `failed` and for pending messages that failed before. */
  readonly lastError?: string;
}

// Every member is there from the start, and none is ever deleted: an entry keeps one fixed
// layout (a `delete` would turn it into a dictionary of several hundred bytes, and every
// created user leaves a settled entry behind). Times are `undefined` when unset rather than
// -Infinity, which V8 would box in 16 bytes per member.
interface Entry {
  readonly message: OutboxMessage;
  state: MemoryOutboxState;
  attempts: number;
  /** When a message that failed is due again (ms); `undefined`: due now. */
  dueAt: number | undefined;
  /** Until when the current claim hides the message (ms); `undefined`: no claim. */
  leaseUntil: number | undefined;
  /** The current claim's fencing token; `undefined` while no one holds the message. */
  claimToken: string | undefined;
  sentAt: number | undefined;
  lastError: string | undefined;
}

/**
 * Keeps the welcome-email outbox of a {@link MemoryUserStore} within one process.
 *
 * Pending messages are also kept apart from settled ones, so a claim looks only at what may be
 * due.
 *
 * @internal
 */
export class MemoryOutbox implements OutboxStore {
  /** Every message, in the order recorded. */
  readonly #all = new Map<string, Entry>();
  /** The messages not yet sent or given up, so a claim never walks the settled ones. */
  readonly #pending = new Map<string, Entry>();
  /** Claims made so far: each claim's token is the next number, so no two are alike. */
  #claims = 0;

  /** Records messages; called in the same synchronous step as the user write. */
  record(messages: readonly OutboxMessage[]): void {
    for (const message of messages) {
      if (this.#all.has(message.id)) continue;
      const copy = cloneJson(message);
      // Ids are made by concatenation; the copy is kept as long as the process runs.
      (copy as { id: string }).id = flatString(message.id);
      const entry: Entry = {
        message: copy,
        state: 'pending',
        attempts: 0,
        dueAt: undefined,
        leaseUntil: undefined,
        claimToken: undefined,
        sentAt: undefined,
        lastError: undefined,
      };
      this.#all.set(copy.id, entry);
      this.#pending.set(copy.id, entry);
    }
  }

  async claim(
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<readonly PendingOutboxMessage[]> {
    const at = now.getTime();
    const claimed: PendingOutboxMessage[] = [];
    for (const entry of this.#pending.values()) {
      if (claimed.length >= limit) break;
      if ((entry.dueAt ?? at) > at || (entry.leaseUntil ?? at) > at) continue;
      entry.leaseUntil = leaseUntil.getTime();
      entry.claimToken = `claim-${++this.#claims}`;
      // A message's members are strings: a spread is a whole copy.
      claimed.push({
        ...entry.message,
        attempts: entry.attempts,
        claimToken: entry.claimToken,
      });
    }
    return claimed;
  }

  async renew(id: string, claimToken: string, leaseUntil: Date): Promise<boolean> {
    const entry = this.#held(id, claimToken);
    if (entry) entry.leaseUntil = leaseUntil.getTime();
    return entry !== undefined;
  }

  async complete(id: string, claimToken: string, at: Date): Promise<boolean> {
    const entry = this.#held(id, claimToken);
    if (!entry) return false;
    entry.state = 'sent';
    entry.sentAt = at.getTime();
    this.#settle(id, entry);
    return true;
  }

  async fail(
    id: string,
    claimToken: string,
    error: string,
    retryAt: Date | undefined,
  ): Promise<boolean> {
    const entry = this.#held(id, claimToken);
    if (!entry) return false;
    entry.attempts += 1;
    entry.lastError = error;
    if (retryAt === undefined) {
      entry.state = 'failed';
      this.#settle(id, entry);
    } else {
      entry.dueAt = retryAt.getTime();
      this.#unclaim(entry);
    }
    return true;
  }

  async release(id: string, claimToken: string): Promise<boolean> {
    const entry = this.#held(id, claimToken);
    if (entry) this.#unclaim(entry);
    return entry !== undefined;
  }

  /** Returns a copy of every message and its delivery state, in the order recorded. */
  snapshot(): MemoryOutboxEntry[] {
    return [...this.#all.values()].map(toView);
  }

  /** The pending message `id`, when `claimToken` is its current claim. */
  #held(id: string, claimToken: string): Entry | undefined {
    const entry = this.#pending.get(id);
    return entry?.claimToken === claimToken ? entry : undefined;
  }

  #unclaim(entry: Entry): void {
    entry.leaseUntil = undefined;
    entry.claimToken = undefined;
  }

  #settle(id: string, entry: Entry): void {
    this.#pending.delete(id);
    this.#unclaim(entry);
  }
}

function toView(entry: Entry): MemoryOutboxEntry {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    message: cloneJson(entry.message),
    state: entry.state,
    attempts: entry.attempts,
    ...(entry.dueAt !== undefined && Number.isFinite(entry.dueAt)
      ? { dueAt: iso(entry.dueAt) }
      : {}),
    ...(entry.leaseUntil !== undefined && Number.isFinite(entry.leaseUntil)
      ? { leaseUntil: iso(entry.leaseUntil) }
      : {}),
    ...(entry.sentAt !== undefined ? { sentAt: iso(entry.sentAt) } : {}),
    ...(entry.lastError !== undefined ? { lastError: entry.lastError } : {}),
  };
}
