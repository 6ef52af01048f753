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

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * One message and its delivery state, in one object of fixed size. The message's members are
 * kept in the entry itself rather than in a copy of their own (an object built member by
 * member reserves room it never uses: 72 bytes per message apart from the entry's own), and
 * every member is there from the start and never deleted (a `delete` would turn the entry into
 * a dictionary of several hundred bytes). Unset times are `undefined` rather than -Infinity,
 * which V8 would box in 16 bytes.
 */
class Entry {
  readonly id: string;
  readonly kind: OutboxMessage['kind'];
  readonly tenant: string;
  readonly userId: string;
  readonly to: string;
  readonly createdAt: string;
  readonly givenName: string | undefined;
  readonly familyName: string | undefined;
  /** A copy of a message with members beyond those above, else `undefined`. */
  readonly unusual: OutboxMessage | undefined;
  state: MemoryOutboxState = 'pending';
  attempts = 0;
  /** Pending: when it is due again after a failure (ms; `undefined`: now). Sent: when it was. */
  at: number | undefined = undefined;
  /** The fencing token of the current claim; `undefined` while no one holds the message. */
  token: string | undefined = undefined;
  /** Until when the current claim hides the message (ms); `undefined` without a claim. */
  leaseUntil: number | undefined = undefined;
  lastError: string | undefined = undefined;

  /** `seq` is the message's place in the order recorded. */
  constructor(
    message: OutboxMessage,
    readonly seq: number,
  ) {
    // Ids are made by concatenation; the entry is kept as long as the process runs.
    this.id = flatString(message.id);
    this.kind = message.kind;
    this.tenant = message.tenant;
    this.userId = message.userId;
    this.to = message.to;
    this.createdAt = message.createdAt;
    this.givenName = message.givenName;
    this.familyName = message.familyName;
    this.unusual = isUsual(message) ? undefined : { ...cloneJson(message), id: this.id };
  }

  /** A new copy of the message as recorded. */
  message(): OutboxMessage {
    if (this.unusual) return cloneJson(this.unusual);
    const { id, kind, tenant, userId, to, createdAt, givenName, familyName } = this;
    const message: Mutable<OutboxMessage> = { id, kind, tenant, userId, to, createdAt };
    if (givenName !== undefined) message.givenName = givenName;
    if (familyName !== undefined) message.familyName = familyName;
    return message;
  }
}

/**
 * Whether a message has only the members an entry keeps itself, each a string: its members read
 * by name, then counted (no lookup of each of its keys in a set).
 */
function isUsual(message: OutboxMessage): boolean {
  const { id, kind, tenant, userId, to, createdAt, givenName, familyName } = message;
  for (const value of [id, kind, tenant, userId, to, createdAt]) {
    if (typeof value !== 'string') return false;
  }
  let members = 6;
  for (const value of [givenName, familyName]) {
    if (value === undefined) continue;
    if (typeof value !== 'string') return false;
    members++;
  }
  // None besides: as many own members as were read.
  return Object.keys(message).length === members;
}

/** The sent messages a memory outbox keeps by default, the most recent ones. */
export const DEFAULT_SENT_KEPT = 1000;

/**
 * Keeps the welcome-email outbox of a {@link MemoryUserStore} within one process.
 *
 * Pending messages are kept apart from settled ones, so a claim looks only at what may be due.
 * Pending and failed messages are kept until the process ends; of the sent ones, only the most
 * recent `sentKept` (every created user leaves one behind, and nothing reads it again: each
 * message of the core has an id of its own, and the user's account status is what says that
 * its welcome email went out).
 *
 * Each message is looked up by id only while it is pending or failed (small, hot tables: the
 * messages of the last few writes, and the rare failures), and the sent ones kept are a ring
 * with no index: a message costs three map operations when recorded and two when sent, where
 * a map of every message kept (1,000 sent ones among them, a cold table) would cost seven, three
 * of them in that table (`bench/outbox/count-delivery.ts` counts what a delivery costs).
 *
 * @internal
 */
export class MemoryOutbox implements OutboxStore {
  /** The messages not yet sent or given up, in the order recorded: all that a claim walks. */
  readonly #pending = new Map<string, Entry>();
  /** The messages given up, kept for inspection until the process ends. */
  readonly #failed = new Map<string, Entry>();
  /** The sent messages kept, a ring: `#sentNext` is the oldest once it is full. */
  readonly #sent: Entry[] = [];
  #sentNext = 0;
  readonly #sentKept: number;
  /** Claims made so far: each claim's token is the next number, so no two are alike. */
  #claims = 0;
  /** Messages recorded so far: the next one's place in the order recorded. */
  #recorded = 0;

  /** Keeps every pending and failed message, and the last `sentKept` sent ones. */
  constructor(sentKept: number = DEFAULT_SENT_KEPT) {
    this.#sentKept = sentKept;
  }

  /**
   * Records messages; called in the same synchronous step as the user write. A message whose
   * id is pending or failed in the outbox is ignored. (The sent messages kept are a record for
   * {@link snapshot}, not a guard: the core never records an id twice.)
   */
  record(messages: readonly OutboxMessage[]): void {
    for (const message of messages) {
      const entry = new Entry(message, this.#recorded);
      if (this.#pending.has(entry.id) || this.#failed.has(entry.id)) continue;
      this.#recorded++;
      this.#pending.set(entry.id, entry);
    }
  }

  async claim(
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<readonly PendingOutboxMessage[]> {
    const at = now.getTime();
    const until = leaseUntil.getTime();
    const claimed: PendingOutboxMessage[] = [];
    for (const entry of this.#pending.values()) {
      if (claimed.length >= limit) break;
      if ((entry.at ?? at) > at || (entry.leaseUntil ?? at) > at) continue;
      const token = `claim-${++this.#claims}`;
      entry.token = token;
      entry.leaseUntil = until;
      const message = entry.message() as Mutable<PendingOutboxMessage>;
      message.attempts = entry.attempts;
      message.claimToken = token;
      claimed.push(message);
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
    this.#settle(entry);
    entry.state = 'sent';
    entry.at = at.getTime();
    this.#keepSent(entry);
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
      this.#settle(entry);
      entry.state = 'failed';
      entry.at = undefined;
      this.#failed.set(entry.id, entry);
    } else {
      this.#unclaim(entry);
      entry.at = retryAt.getTime();
    }
    return true;
  }

  async release(id: string, claimToken: string): Promise<boolean> {
    const entry = this.#held(id, claimToken);
    if (entry) this.#unclaim(entry);
    return entry !== undefined;
  }

  /**
   * Returns a copy of every message kept (all pending and failed ones, the last sent ones) and
   * its delivery state, in the order recorded.
   */
  snapshot(): MemoryOutboxEntry[] {
    return [...this.#pending.values(), ...this.#failed.values(), ...this.#sent]
      .sort((a, b) => a.seq - b.seq)
      .map(toView);
  }

  /** The pending message `id`, when `claimToken` is its current claim. */
  #held(id: string, claimToken: string): Entry | undefined {
    const entry = this.#pending.get(id);
    return entry?.token === claimToken ? entry : undefined;
  }

  #unclaim(entry: Entry): void {
    entry.token = undefined;
    entry.leaseUntil = undefined;
  }

  #settle(entry: Entry): void {
    this.#pending.delete(entry.id);
    this.#unclaim(entry);
  }

  /** Keeps a message just sent among the last `sentKept`, forgetting the oldest beyond them. */
  #keepSent(entry: Entry): void {
    if (this.#sent.length < this.#sentKept) {
      this.#sent.push(entry);
    } else if (this.#sentKept > 0) {
      this.#sent[this.#sentNext] = entry;
      this.#sentNext = (this.#sentNext + 1) % this.#sentKept;
    }
  }
}

function toView(entry: Entry): MemoryOutboxEntry {
  const iso = (ms: number) => new Date(ms).toISOString();
  const { state, at, leaseUntil, lastError } = entry;
  return {
    message: entry.message(),
    state,
    attempts: entry.attempts,
    ...(state === 'pending' && at !== undefined ? { dueAt: iso(at) } : {}),
    ...(leaseUntil !== undefined ? { leaseUntil: iso(leaseUntil) } : {}),
    ...(state === 'sent' && at !== undefined ? { sentAt: iso(at) } : {}),
    ...(lastError !== undefined ? { lastError } : {}),
  };
}
