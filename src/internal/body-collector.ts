import type { BodyEnd } from '../core/types.js';
import type { BodyLimits } from './body-limits.js';
import { concatBytes } from './concat-bytes.js';

/** What an adapter read of a request body, and how the read ended. */
export interface BodyRead {
  /**
   * The bytes (`undefined` for an empty body, and always after a timeout or an abort), or what
   * a host's body parser or a framework's cache already made of the body.
   */
  readonly body: unknown;
  readonly end: BodyEnd;
}

/** The read of a request that has no body. */
export const NO_BODY: BodyRead = { body: undefined, end: 'complete' };

/**
 * Collects the chunks of one body up to a cap and within a time limit, and settles once: at the
 * end of the stream, at the cap (`cut`), at the deadline (`timeout`), when the stream fails
 * (`aborted`) or when a chunk finds no room in the adapter's shared budget (`busy`). The bytes
 * it holds are reserved in that budget until it settles.
 */
export class BodyCollector {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private settled = false;
  private readonly timer: ReturnType<typeof setTimeout>;

  /**
   * @param limits - the cap in bytes and the time allowed for the whole body.
   * @param settle - receives the read, once.
   * @param stop - stops the source after a cut or a timeout, so no more bytes come in.
   */
  constructor(
    private readonly limits: BodyLimits,
    private readonly settle: (read: BodyRead) => void,
    private readonly stop?: () => void,
  ) {
    this.timer = setTimeout(() => this.finish('timeout'), limits.timeoutMs);
  }

  /** Takes one chunk; returns false once the read has settled and wants no more. */
  push(chunk: Uint8Array): boolean {
    if (this.settled) return false;
    if (!this.limits.budget.take(chunk.length)) {
      this.finish('busy');
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < this.limits.cap) return true;
    this.finish('cut');
    return false;
  }

  /** Settles the read with how it ended; later calls do nothing. */
  finish(end: BodyEnd): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.limits.budget.give(this.size);
    // A timed-out or aborted body is not handed on: the core answers without it.
    const kept = end === 'complete' || end === 'cut';
    this.settle({ body: kept ? concatBytes(this.chunks, this.size) : undefined, end });
    // Whatever still references the collector (a pending read) holds no body bytes.
    this.chunks = [];
    if (end === 'cut' || end === 'timeout' || end === 'busy') this.stop?.();
  }
}
