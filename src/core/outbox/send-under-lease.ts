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
 * Runs the dispatcher's sends, one at a time, each under its claim: renews the claim's lease
 * every third of it while the send runs, so a send slower than the lease is still never sent by
 * another process too, and aborts the send's signal, and stops waiting for it, when the claim
 * is lost (a renewal found another holder, or none succeeded before the lease ran out) or
 * `timeoutMs` passes; the send then rejects with {@link OutboxClaimLost} or
 * {@link OutboxSendTimeout}.
 *
 * The speed device behind this seam: one timer serves every send
 * of the dispatcher, armed for the earliest deadline of the send in flight and moved only when
 * it fired early or a deadline came closer, instead of a renewal timer and a timeout timer set
 * and cleared per send; and a send's `AbortController` is made only when the Mailer reads
 * `signal` (or already aborted when it reads it late). A send that settles within a fraction
 * of the lease sets no timer and makes no controller. And a claim younger than a third of its
 * lease is sent without confirming it again (it cannot have passed to another process yet):
 * one store round trip less per message. `bench/outbox/count-delivery.ts` counts what a delivery
 * costs.
 */
export class SendWatch {
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #beatMs: number;
  readonly #now: () => Date;
  readonly #onError: (error: unknown) => void;
  /** The send in flight. */
  #current: Flight | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (`performance.now()` ms); Infinity without a timer. */
  #timerAt = Number.POSITIVE_INFINITY;

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
  run(
    leaseEnds: number,
    renew: () => Promise<boolean>,
    send: (options: SendOptions) => Promise<void>,
  ): Promise<boolean> {
    const confirmedAt = leaseEnds - this.#leaseMs;
    const sinceConfirmed = this.#now().getTime() - confirmedAt;
    if (sinceConfirmed >= this.#beatMs) return this.#confirmThenSend(renew, send);
    return this.#send(leaseEnds, this.#beatMs - Math.max(0, sinceConfirmed), renew, send);
  }

  async #confirmThenSend(
    renew: () => Promise<boolean>,
    send: (options: SendOptions) => Promise<void>,
  ): Promise<boolean> {
    const leaseEnds = this.#now().getTime() + this.#leaseMs;
    if (!(await renew())) return false;
    return this.#send(leaseEnds, this.#beatMs, renew, send);
  }

  // Starts the send, with its first renewal `beatIn` ms from now.
  #send(
    leaseEnds: number,
    beatIn: number,
    renew: () => Promise<boolean>,
    send: (options: SendOptions) => Promise<void>,
  ): Promise<boolean> {
    const start = performance.now();
    const flight = new Flight(renew, leaseEnds, start + beatIn, start + this.#timeoutMs);
    this.#current = flight;
    this.#arm(Math.min(flight.beatAt, flight.timeoutAt));
    return flight.wait(send);
  }

  /** Clears the timer; a later {@link run} sets it again. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  // Sets the timer for `at`, unless it fires by then anyway.
  #arm(at: number): void {
    if (this.#timer !== undefined) {
      if (this.#timerAt <= at) return;
      clearTimeout(this.#timer);
    }
    this.#timerAt = at;
    this.#timer = setTimeout(this.#tick, Math.max(1, Math.ceil(at - performance.now())));
    this.#timer.unref?.();
  }

  // The timer fired: act on the deadlines of the send in flight that came, and wait for the next.
  readonly #tick = (): void => {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const flight = this.#current;
    if (flight === undefined || flight.over) return;
    const at = performance.now();
    if (at >= flight.timeoutAt) {
      flight.abort(
        new OutboxSendTimeout(`The Mailer did not settle within ${this.#timeoutMs} ms.`),
      );
      return;
    }
    if (!flight.renewing && at >= flight.beatAt) void this.#renew(flight);
    // While a renewal runs, the next beat is set when it ends.
    this.#arm(flight.renewing ? flight.timeoutAt : Math.min(flight.beatAt, flight.timeoutAt));
  };

  // Each renewal waits for the one before, so a slow store never piles them up.
  async #renew(flight: Flight): Promise<void> {
    flight.renewing = true;
    const started = this.#now().getTime();
    try {
      if (await flight.renew()) flight.leaseEnds = started + this.#leaseMs;
      else flight.abort(new OutboxClaimLost('The claim was taken by another sender.'));
    } catch (error) {
      this.#onError(error);
      // Unconfirmed past the lease's end, another process may have claimed the message.
      if (this.#now().getTime() >= flight.leaseEnds)
        flight.abort(new OutboxClaimLost('The lease ran out before a renewal succeeded.'));
    }
    flight.renewing = false;
    if (flight !== this.#current || flight.over) return;
    flight.beatAt = performance.now() + this.#beatMs;
    this.#arm(Math.min(flight.beatAt, flight.timeoutAt));
  }
}

/** One send and its deadlines: `leaseEnds` on the lease's clock, the others monotonic. */
class Flight {
  renewing = false;
  /** Whether the send settled or was aborted: its claim is no longer renewed. */
  over = false;
  /** Why the send was aborted; `undefined` while it was not. */
  reason: Error | undefined;
  #controller: AbortController | undefined;
  #reject: ((reason: Error) => void) | undefined;

  constructor(
    readonly renew: () => Promise<boolean>,
    public leaseEnds: number,
    public beatAt: number,
    readonly timeoutAt: number,
  ) {}

  /** The send's signal, made on first use; aborted already when the send was. */
  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.reason !== undefined) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the send (the first reason wins) and stops waiting for it. */
  abort(reason: Error): void {
    if (this.over) return;
    this.over = true;
    this.reason = reason;
    this.#controller?.abort(reason);
    this.#reject?.(reason);
  }

  /** Starts `send`; resolves to true or rejects as it settles, or rejects when it is aborted first. */
  wait(send: (options: SendOptions) => Promise<void>): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#reject = reject;
      let sending: Promise<void>;
      try {
        sending = Promise.resolve(send(new FlightOptions(this)));
      } catch (error) {
        sending = Promise.reject(error);
      }
      // A Mailer that ignores the signal settles after we stopped listening: that is quiet.
      sending.then(
        () => {
          this.over = true;
          resolve(true);
        },
        (error: unknown) => {
          this.over = true;
          reject(error);
        },
      );
    });
  }
}

/**
 * What the Mailer gets with a send: its options, one object per send, whose `signal` is made
 * when it is read. The member is an own enumerable accessor, as a plain `{ signal }` is a data
 * member, so a Mailer may spread or copy the options and keep the signal.
 *
 * The speed device: the accessor is defined with one shared
 * descriptor, so every options object has one hidden class and fast properties. An object
 * literal with a `get signal()` closing over its flight (the plain way) makes V8 keep each
 * such object as a dictionary: several times the instructions to make, and hundreds of bytes
 * promoted to old space per send.
 */
class FlightOptions implements SendOptions {
  readonly #flight: Flight;
  declare readonly signal: AbortSignal;

  constructor(flight: Flight) {
    this.#flight = flight;
    Object.defineProperty(this, 'signal', SIGNAL);
  }

  /** The signal of the send whose options `options` are. */
  static signalOf(options: FlightOptions): AbortSignal {
    return options.#flight.signal();
  }
}

/** The `signal` member of every {@link FlightOptions}: enumerable and configurable, as a plain one. */
const SIGNAL: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: FlightOptions): AbortSignal {
    return FlightOptions.signalOf(this);
  },
};
