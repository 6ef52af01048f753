import type { SendOptions } from '../../contracts/mailer.js';

/** The reason a send was aborted because another process may now hold its message. */
export class OutboxClaimLost extends Error {
  override readonly name = 'OutboxClaimLost';
}

/** The reason a send was aborted because it ran past `outbox.sendTimeoutMs`. */
export class OutboxSendTimeout extends Error {
  override readonly name = 'OutboxSendTimeout';
}

/** The settings a {@link SendWatch} keeps every send to. */
export interface SendWatchSettings {
  /** The length of a lease; a send's claim is renewed every third of it. */
  readonly leaseMs: number;
  /** Longest wait for a send before it is aborted and counted as failed. */
  readonly timeoutMs: number;
}

/**
 * Runs the dispatcher's sends, each under its claim: renews the claim's lease every third of it
 * while the send runs, so a send slower than the lease is still never sent by another process
 * too, and aborts the send's signal, and stops waiting for it, when the claim is lost (a
 * renewal found another holder, or none succeeded before the lease ran out) or `timeoutMs`
 * passes; the send then rejects with {@link OutboxClaimLost} or {@link OutboxSendTimeout}.
 *
 * A claim younger than a third of its lease is sent without confirming it again: it cannot
 * have passed to another process yet, and one store round trip per message is saved.
 */
export class SendWatch {
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #beatMs: number;
  readonly #now: () => Date;
  readonly #onError: (error: unknown) => void;

  /** `now` keeps the lease's time (as the store does); `onError` hears of failed renewals. */
  constructor(settings: SendWatchSettings, now: () => Date, onError: (error: unknown) => void) {
    this.#leaseMs = settings.leaseMs;
    this.#timeoutMs = settings.timeoutMs;
    this.#beatMs = Math.max(1, Math.floor(settings.leaseMs / 3));
    this.#now = now;
    this.#onError = onError;
  }

  /**
   * Runs `send` under the claim `renew` extends (by `leaseMs` from now; it resolves to false
   * when the claim is gone), whose lease runs until `leaseEnds` (ms, on the clock `now`) as of
   * its claim or last renewal. Resolves to true when `send` does, and to false without sending
   * when the claim, confirmed first, was gone.
   *
   * A claim is renewed every third of the lease, before the send as during it: a claim made or
   * renewed less than a third of the lease ago is sent at once, with its first renewal when that
   * third is over; an older one (a later message of a long batch, whose lease may have run out
   * and passed to another process) is confirmed first, which also gives the send a full lease.
   */
  async run(
    leaseEnds: number,
    renew: () => Promise<boolean>,
    send: (options: SendOptions) => Promise<void>,
  ): Promise<boolean> {
    const sinceConfirmed = this.#now().getTime() - (leaseEnds - this.#leaseMs);
    if (sinceConfirmed < this.#beatMs)
      return this.#send(leaseEnds, this.#beatMs - Math.max(0, sinceConfirmed), renew, send);
    const confirmedEnds = this.#now().getTime() + this.#leaseMs;
    if (!(await renew())) return false;
    return this.#send(confirmedEnds, this.#beatMs, renew, send);
  }

  // Sends with a timeout, renewing the claim every third of the lease (the first renewal
  // `beatIn` ms from now), one renewal at a time.
  async #send(
    leaseEnds: number,
    beatIn: number,
    renew: () => Promise<boolean>,
    send: (options: SendOptions) => Promise<void>,
  ): Promise<boolean> {
    const controller = new AbortController();
    let stopWaiting!: (reason: Error) => void;
    const aborted = new Promise<never>((_, reject) => (stopWaiting = reject));
    const abort = (reason: Error): void => {
      if (controller.signal.aborted) return;
      controller.abort(reason);
      stopWaiting(reason);
    };
    let over = false;
    let beat: ReturnType<typeof setTimeout> | undefined;
    const renewNow = async (): Promise<void> => {
      const started = this.#now().getTime();
      try {
        if (await renew()) leaseEnds = started + this.#leaseMs;
        else abort(new OutboxClaimLost('The claim was taken by another sender.'));
      } catch (error) {
        this.#onError(error);
        // Unconfirmed past the lease's end, another process may have claimed the message.
        if (this.#now().getTime() >= leaseEnds)
          abort(new OutboxClaimLost('The lease ran out before a renewal succeeded.'));
      }
      if (!over && !controller.signal.aborted) beatAfter(this.#beatMs);
    };
    const beatAfter = (ms: number): void => {
      beat = setTimeout(() => void renewNow(), ms);
      beat.unref?.();
    };
    const timeout = setTimeout(
      () => abort(new OutboxSendTimeout(`The Mailer did not settle within ${this.#timeoutMs} ms.`)),
      this.#timeoutMs,
    );
    timeout.unref?.();
    beatAfter(beatIn);
    try {
      let sending: Promise<void>;
      try {
        sending = Promise.resolve(send({ signal: controller.signal }));
      } catch (error) {
        sending = Promise.reject(error);
      }
      // A Mailer that ignores the signal settles after we stopped waiting: that is quiet.
      await Promise.race([sending, aborted]);
      return true;
    } finally {
      over = true;
      clearTimeout(beat);
      clearTimeout(timeout);
    }
  }
}
