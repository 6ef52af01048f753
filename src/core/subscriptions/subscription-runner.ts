import type { EventLog } from '../../contracts/event-log.js';
import type { SubscriptionStore } from '../../contracts/event-subscriptions.js';
import { deliverPartition, type PartitionDeps } from './deliver-partition.js';
import { retryDelay, type SubscribeSettings } from './subscribe-settings.js';
import type { EventHandler, PagePreparer } from './types.js';

/** Pages of the whole log one walk reads at most before it lets deliveries start. */
const PAGES_PER_WALK = 10;

/**
 * Rounds woken by writes of this process (and by deliveries that caught up with them) start at
 * most this often: the first at once, the writes that follow within this time share the next
 * round (one walk, one claim, one record of what was delivered), where a round per write would
 * cost a database several statements per write.
 */
const WAKE_SPACING_MS = 100;

/**
 * Writes that start a round at once, however soon after the last: a burst of writes in this
 * process must not run further ahead of its deliveries than this between two rounds (a memory
 * store's log keeps only its most recent events).
 */
const WAKE_AFTER_WRITES = 256;

/** A wake timer this late has been dropped (a runtime that ends timers with their request). */
const WAKE_LOST_MS = 1_000;

/**
 * Rounds after the last write of this process, this long after it. On PostgreSQL a write's
 * events become readable once every transaction older than it has ended: the round a write
 * wakes can come while an older one is still open and miss them, and with no later write and
 * no poll they would wait for the next start. These rounds find them.
 */
const SETTLE_AFTER_MS = [1_000, 10_000] as const;

/** What a runner is made of. */
export interface RunnerParts {
  readonly subscriber: string;
  readonly log: EventLog;
  readonly store: SubscriptionStore;
  readonly handler: EventHandler;
  readonly settings: SubscribeSettings;
  readonly now: () => Date;
  readonly onError: (error: unknown) => void;
  /** Reads what the handler needs for a page at once (a built-in subscriber's). */
  readonly prepare?: PagePreparer | undefined;
}

/**
 * Runs one durable subscriber in this process. A round walks the log (when no other process
 * holds this subscriber's walker) and marks the tenants it found due, then claims due tenants
 * up to `concurrency` and delivers each in a task of its own: a tenant whose handler fails or
 * hangs holds one task until its timeout, never the others. A round starts on `wake()` (a
 * write of this process, shortly after), on the poll, when a retry comes due, and when a task
 * ends with room for another tenant.
 */
export class SubscriptionRunner {
  readonly #parts: RunnerParts;
  readonly #deps: PartitionDeps;
  /** The deliveries under way, one per claimed tenant. */
  readonly #tasks = new Set<Promise<void>>();
  #round: Promise<void> | undefined;
  /** The claim under way (or the last one). */
  #claiming: Promise<number> = Promise.resolve(0);
  #again = false;
  /** Deliveries that ended in a store or log failure, so far. */
  #faults = 0;
  #stopped = false;
  /** How many `drain` calls are under way. */
  #draining = 0;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #poll: ReturnType<typeof setInterval> | undefined;
  #wake: ReturnType<typeof setTimeout> | undefined;
  /** When the last round woken by a write started, and when the pending wake is due. */
  #wokenAt = -Infinity;
  #wakeDue = 0;
  /** The pending round of those that follow the last write (also in `#timers`), its step. */
  #settle: ReturnType<typeof setTimeout> | undefined;
  #settleStep = -1;
  /** When this process last wrote something this subscriber reads (`performance.now()`). */
  #lastWriteAt = -Infinity;
  /** Writes that woke this subscriber since the last round started. */
  #writesSinceRound = 0;

  constructor(parts: RunnerParts) {
    this.#parts = parts;
    this.#deps = {
      ...parts,
      stopping: () => this.#stopped,
      draining: () => this.#draining > 0,
      wakeAt: (at) => this.#wakeAt(at),
    };
  }

  /** The event types this subscriber reads; `undefined`: every type. */
  get types(): readonly string[] | undefined {
    return this.#parts.settings.types;
  }

  /** Starts polling (when `pollIntervalMs` is above 0) and a first round. */
  start(): void {
    const every = this.#parts.settings.pollIntervalMs;
    if (every > 0) {
      this.#poll = setInterval(() => this.kick(), every);
      this.#poll.unref?.();
    }
    this.kick();
  }

  /**
   * Starts a round after a committed write of this process: at once, or `WAKE_SPACING_MS`
   * after the last round a write started; the writes in between share it.
   */
  wake(): void {
    if (this.#stopped) return;
    this.#settleLater();
    this.#wakeSoon(++this.#writesSinceRound >= WAKE_AFTER_WRITES);
  }

  // A round after the spacing, or at once (`atOnce`, or when the spacing has passed).
  #wakeSoon(atOnce = false): void {
    if (this.#stopped) return;
    const now = performance.now();
    if (this.#wake !== undefined) {
      if (!atOnce && now < this.#wakeDue + WAKE_LOST_MS) return;
      clearTimeout(this.#wake);
      this.#wake = undefined;
    }
    const wait = atOnce ? 0 : this.#wokenAt + WAKE_SPACING_MS - now;
    if (wait <= 0) {
      this.#wokenAt = now;
      this.kick();
      return;
    }
    this.#wakeDue = now + wait;
    this.#wake = setTimeout(() => {
      this.#wake = undefined;
      this.#wokenAt = performance.now();
      this.kick();
    }, wait);
    this.#wake.unref?.();
  }

  // Notes a write for the rounds that follow the last one (SETTLE_AFTER_MS). A write while
  // the first is pending only moves its time; one while a later is pending starts over.
  #settleLater(): void {
    this.#lastWriteAt = performance.now();
    if (this.#settleStep !== 0) this.#settleAt(0);
  }

  // Arms the round `step` of SETTLE_AFTER_MS after the last write; when it fires early (a
  // later write moved the time), it waits for the rest.
  #settleAt(step: number): void {
    if (this.#settle !== undefined) {
      clearTimeout(this.#settle);
      this.#timers.delete(this.#settle);
    }
    const after = SETTLE_AFTER_MS[step];
    this.#settleStep = after === undefined ? -1 : step;
    this.#settle = undefined;
    if (after === undefined) return;
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        this.#settle = undefined;
        if (performance.now() < this.#lastWriteAt + after) return this.#settleAt(step);
        this.kick();
        this.#settleAt(step + 1);
      },
      Math.max(1, this.#lastWriteAt + after - performance.now()),
    );
    timer.unref?.();
    this.#timers.add(timer);
    this.#settle = timer;
  }

  /** Starts a round soon, without waiting for it; one under way goes round again. */
  kick(): void {
    if (this.#stopped) return;
    this.#writesSinceRound = 0;
    if (this.#round !== undefined) {
      this.#again = true;
      return;
    }
    this.#round = this.#rounds().finally(() => {
      this.#round = undefined;
      // A kick between the last check of the loop and now found the round still set.
      if (this.#again && !this.#stopped) this.kick();
    });
  }

  /**
   * Runs rounds until one finds nothing to walk and no tenant to claim, waiting for every
   * delivery it started; resolves once this process has delivered everything due now.
   */
  async drain(): Promise<void> {
    this.#draining++;
    try {
      await this.#drain();
    } finally {
      this.#draining--;
    }
  }

  async #drain(): Promise<void> {
    // Bounded: a handler that keeps failing with no backoff would otherwise spin here.
    for (let i = 0; i < 10_000 && !this.#stopped; i++) {
      const faults = this.#faults;
      await this.#settled();
      const walked = await this.#walk();
      const claimed = await this.#claim();
      await this.#settled();
      if (!walked && claimed === 0 && this.#round === undefined) return;
      // A store or log failure: its tenant waits for its retry delay, not for this loop.
      if (this.#faults > faults) return;
    }
  }

  // Waits until no round and no delivery of this process is under way.
  async #settled(): Promise<void> {
    for (let i = 0; i < 10_000 && (this.#round !== undefined || this.#tasks.size > 0); i++) {
      await this.#round;
      await Promise.all(this.#tasks);
    }
  }

  /**
   * Stops polling and retry timers, waits for the deliveries under way (each hands its tenant
   * back after the attempt in flight, which lasts at most `timeoutMs`).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#poll) clearInterval(this.#poll);
    if (this.#wake) clearTimeout(this.#wake);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await this.#round;
    await Promise.all(this.#tasks);
  }

  async #rounds(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#walk();
        await this.#claim();
      } catch (error) {
        // A store or log failure: the next kick, poll or retry timer tries again.
        this.#parts.onError(error);
        this.#again = false;
        return;
      }
    } while (this.#again && !this.#stopped);
  }

  /**
   * Reads the whole log after the walker's cursor, a bounded number of pages, and marks the
   * tenants found due, each page in one atomic step with moving the cursor. Resolves to whether
   * it read any event (false too when another process holds the walker).
   */
  async #walk(): Promise<boolean> {
    const { store, log, subscriber, settings, now } = this.#parts;
    const lease = () => new Date(now().getTime() + settings.leaseMs);
    const claim = await store.claimWalker(subscriber, now(), lease(), settings.startAfter);
    if (claim === null) return false;
    let { cursor } = claim;
    let read = false;
    let more = true;
    try {
      for (let page = 0; page < PAGES_PER_WALK && more && !this.#stopped; page++) {
        const { events, next } = await log.list({
          limit: settings.batchSize,
          ...(cursor === undefined ? {} : { after: cursor }),
          ...(settings.types === undefined ? {} : { types: settings.types }),
        });
        more = events.length === settings.batchSize;
        // The log may move past events of other types even when it lists none.
        const to = next ?? events.at(-1)?.cursor;
        if (to === undefined || to === cursor) break;
        read = true;
        const tenants = [...new Set(events.map((e) => e.tenant))];
        const advance = { from: cursor, cursor: to, tenants, now: now(), leaseUntil: lease() };
        if (!(await store.advanceWalker(subscriber, claim.token, advance))) return read;
        cursor = to;
      }
      // More pages left: another round reads them once deliveries have started.
      if (more && read && !this.#stopped) this.#again = true;
    } finally {
      await store.releaseWalker(subscriber, claim.token).catch(this.#parts.onError);
    }
    return read;
  }

  /**
   * Claims due tenants while there is room, each delivered in a task; resolves to how many.
   * Claims of this process run one after another, so that together they never take more
   * tenants than `concurrency`.
   */
  #claim(): Promise<number> {
    const claiming = this.#claiming.then(() => this.#claimNow());
    this.#claiming = claiming.catch(() => 0);
    return claiming;
  }

  async #claimNow(): Promise<number> {
    const { store, subscriber, settings, now } = this.#parts;
    const room = settings.concurrency - this.#tasks.size;
    if (room <= 0 || this.#stopped) return 0;
    const at = now();
    const leaseUntil = new Date(at.getTime() + settings.leaseMs);
    const claims = await store.claimPartitions(subscriber, at, leaseUntil, room);
    for (const claim of claims) {
      const task: Promise<void> = deliverPartition(this.#deps, claim).then((outcome) => {
        this.#tasks.delete(task);
        // Room for another tenant, or this one has more to deliver. After a store or log
        // failure the tenant is due again at once: a round at once would fail again at once,
        // so the next one waits a first retry's delay.
        if (outcome === 'done') return this.kick();
        if (outcome === 'caught-up') return this.#wakeSoon();
        this.#faults++;
        this.#wakeAt(this.#parts.now().getTime() + retryDelay(settings, 1));
      });
      this.#tasks.add(task);
    }
    return claims.length;
  }

  /**
   * Starts a round when a retry is due. Node's timers run on the event loop's clock, which
   * can fire before `now()` reaches the due time; an early timer waits again for what is left.
   */
  #wakeAt(at: number): void {
    if (this.#stopped) return;
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        if (this.#parts.now().getTime() < at) this.#wakeAt(at);
        else this.kick();
      },
      Math.max(1, at - this.#parts.now().getTime()),
    );
    timer.unref?.();
    this.#timers.add(timer);
  }
}
