/**
 * One task at a time per key, in arrival order. Writes to one resource inside this process
 * queue here instead of racing to a version conflict; conflicts then only come from other
 * processes, which the write loop's bounded retry absorbs.
 */
export class KeyedLock {
  // The tasks waiting for each key in arrival order, present while a task of the key runs.
  readonly #waiting = new Map<string, (() => void)[]>();

  /** Runs `task` holding `key`, once every task queued before it under `key` has settled. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const waiting = this.#waiting.get(key);
    if (waiting === undefined) this.#waiting.set(key, []);
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The key passes to the next task waiting, or is free when none is.
      const next = this.#waiting.get(key)?.shift();
      if (next === undefined) this.#waiting.delete(key);
      else next();
    }
  }
}
