/**
 * One task at a time per key, in arrival order. Writes to one resource inside this process
 * queue here instead of racing to a version conflict; conflicts then only come from other
 * processes, which the write loop's bounded retry absorbs.
 */
export class KeyedLock {
  // The last task queued under each key, present while any task of the key runs or waits.
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` holding `key`, once every task queued before it under `key` has settled. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key);
    let release = (): void => undefined;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#tails.set(key, mine);
    try {
      if (before !== undefined) await before;
      return await task();
    } finally {
      // Nobody queued after this task: the key is free.
      if (this.#tails.get(key) === mine) this.#tails.delete(key);
      release();
    }
  }
}
