import type { OutboxMessage, OutboxStore, PendingOutboxMessage } from '../../contracts/outbox.js';
import { cloneJson } from './clone-json.js';

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

interface Entry {
  readonly message: OutboxMessage;
  state: MemoryOutboxState;
  attempts: number;
  dueAt: number;
  leaseUntil: number;
  sentAt?: number;
  lastError?: string;
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

  /** Records messages; called in the same synchronous step as the user write. */
  record(messages: readonly OutboxMessage[]): void {
    for (const message of messages) {
      if (this.#all.has(message.id)) continue;
      const entry: Entry = {
        message: cloneJson(message),
        state: 'pending',
        attempts: 0,
        dueAt: -Infinity,
        leaseUntil: -Infinity,
      };
      this.#all.set(message.id, entry);
      this.#pending.set(message.id, entry);
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
      if (entry.dueAt > at || entry.leaseUntil > at) continue;
      entry.leaseUntil = leaseUntil.getTime();
      claimed.push({ ...cloneJson(entry.message), attempts: entry.attempts });
    }
    return claimed;
  }

  async complete(id: string, at: Date): Promise<void> {
    const entry = this.#pending.get(id);
    if (!entry) return;
    entry.state = 'sent';
    entry.sentAt = at.getTime();
    this.#settle(id, entry);
  }

  async fail(id: string, error: string, retryAt: Date | undefined): Promise<void> {
    const entry = this.#pending.get(id);
    if (!entry) return;
    entry.attempts += 1;
    entry.lastError = error;
    if (retryAt === undefined) {
      entry.state = 'failed';
      this.#settle(id, entry);
    } else {
      entry.dueAt = retryAt.getTime();
      entry.leaseUntil = -Infinity;
    }
  }

  /** Returns a copy of every message and its delivery state, in the order recorded. */
  snapshot(): MemoryOutboxEntry[] {
    return [...this.#all.values()].map(toView);
  }

  #settle(id: string, entry: Entry): void {
    this.#pending.delete(id);
    entry.leaseUntil = -Infinity;
  }
}

function toView(entry: Entry): MemoryOutboxEntry {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    message: cloneJson(entry.message),
    state: entry.state,
    attempts: entry.attempts,
    ...(Number.isFinite(entry.dueAt) ? { dueAt: iso(entry.dueAt) } : {}),
    ...(Number.isFinite(entry.leaseUntil) ? { leaseUntil: iso(entry.leaseUntil) } : {}),
    ...(entry.sentAt !== undefined ? { sentAt: iso(entry.sentAt) } : {}),
    ...(entry.lastError !== undefined ? { lastError: entry.lastError } : {}),
  };
}
