/**
 * Runs tasks one at a time per key, in arrival order. Writes to one user inside this process
 * queue here instead of racing to a version conflict; conflicts then only come from other
 * processes, which the bounded retry absorbs.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` once every task queued before it under `key` has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    // An idle key, the usual case, starts at once instead of a microtask later.
    const result = previous === undefined ? start(task) : previous.then(task, task);
    // One promise per task: it marks the end of the queue and removes itself when still last.
    // Unnamed callbacks: under tsx every named closure costs a `__name` call per task.
    const tail: Promise<void> = result.then(
      () => this.#release(key, tail),
      () => this.#release(key, tail),
    );
    this.#tails.set(key, tail);
    return result;
  }

  #release(key: string, tail: Promise<void>): void {
    if (this.#tails.get(key) === tail) this.#tails.delete(key);
  }
}

function start<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (error) {
    return Promise.reject(error);
  }
}
