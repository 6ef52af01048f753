/**
 * One writer at a time per key, in arrival order. Writes to one user inside this process queue
 * here instead of racing to a version conflict; conflicts then only come from other processes,
 * which the bounded retry absorbs.
 *
 * A free key is taken without a promise, a timer or a callback: the usual write never waits,
 * and the lock costs it two map operations. Awaiting a resolved promise instead would cost every
 * PUT or PATCH one more microtask turn and the promise's allocation.
 */
export class KeyedLock {
  // A key is present while it is held: `null` with nobody waiting, else the waiters in order.
  readonly #held = new Map<string, (() => void)[] | null>();

  /**
   * Takes `key`. Returns `undefined` when it was free and is now the caller's; otherwise a
   * promise that resolves once every earlier holder has released it and it is the caller's.
   * Every acquire must be paired with exactly one {@link release}.
   */
  acquire(key: string): Promise<void> | undefined {
    if (!this.#held.has(key)) {
      this.#held.set(key, null);
      return undefined;
    }
    return new Promise((resolve) => {
      const waiters = this.#held.get(key);
      if (waiters) waiters.push(resolve);
      else this.#held.set(key, [resolve]);
    });
  }

  /** Releases `key`: hands it to the first waiter, or frees it when nobody waits. */
  release(key: string): void {
    const waiters = this.#held.get(key);
    const next = waiters?.shift();
    if (next === undefined) {
      this.#held.delete(key);
      return;
    }
    if (waiters?.length === 0) this.#held.set(key, null);
    next();
  }

  /** Runs `task` holding `key`, once every task queued before it under `key` has settled. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const turn = this.acquire(key);
    if (turn !== undefined) await turn;
    try {
      return await task();
    } finally {
      this.release(key);
    }
  }
}
