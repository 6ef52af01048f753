import type { ScimEvent } from './types.js';

/** Delivers lifecycle events to listeners; a throwing listener never fails a request. */
export class EventHub {
  readonly #listeners = new Set<(event: ScimEvent) => void>();
  readonly #onError: (error: unknown) => void;
  #onCommit: ((types: () => readonly string[]) => void) | undefined;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** Adds a listener; returns the function that removes it. */
  on(listener: (event: ScimEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells whether anyone listens, so callers can skip building events nobody reads. */
  get active(): boolean {
    return this.#listeners.size > 0;
  }

  /** Sets what a committed write wakes besides the listeners (the durable subscribers). */
  onCommit(wake: (types: () => readonly string[]) => void): void {
    this.#onCommit = wake;
  }

  /**
   * Tells that a write committed: wakes what `onCommit` set, even when no one listens.
   * `types` lists the log's types of the events the write recorded (or may have recorded),
   * only when asked: a subscriber of other types has nothing new to read.
   */
  committed(types: () => readonly string[]): void {
    this.#onCommit?.(types);
  }

  emit(event: ScimEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
