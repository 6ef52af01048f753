/** How {@link sendUnderLease} keeps one claim alive while a send runs. */
export interface LeaseKeeping {
  /** Extends the claim's lease by `leaseMs` from now; resolves to false when the claim is gone. */
  readonly renew: () => Promise<boolean>;
  /** The length of a lease; the claim is renewed every third of it. */
  readonly leaseMs: number;
  /** Longest wait for the send before it is aborted and counted as failed. */
  readonly timeoutMs: number;
  readonly now: () => Date;
  /** Receives renewals that failed with an error (the send goes on while the lease lasts). */
  readonly onError: (error: unknown) => void;
}

/** The reason a send was aborted because another process may now hold its message. */
export class OutboxClaimLost extends Error {
  override readonly name = 'OutboxClaimLost';
}

/** The reason a send was aborted because it ran past `outbox.sendTimeoutMs`. */
export class OutboxSendTimeout extends Error {
  override readonly name = 'OutboxSendTimeout';
}

/**
 * Runs `send` while renewing its claim's lease, so a send slower than the lease is still never
 * sent by another process too. Aborts the signal given to `send`, and stops waiting for it,
 * when the claim is lost (a renewal found another holder, or none succeeded before the lease
 * ran out) or the timeout passes; rejects then with {@link OutboxClaimLost} or
 * {@link OutboxSendTimeout}.
 */
export async function sendUnderLease(
  keeping: LeaseKeeping,
  send: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { leaseMs, now, onError } = keeping;
  const controller = new AbortController();
  const abort = (reason: Error) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  let leaseEnds = now().getTime() + leaseMs;
  let done = false;
  let beat: ReturnType<typeof setTimeout> | undefined;
  // Each renewal waits for the one before, so a slow store never piles them up.
  const schedule = () => {
    beat = setTimeout(renew, Math.max(1, Math.floor(leaseMs / 3)));
    beat.unref?.();
  };
  const renew = async () => {
    const started = now().getTime();
    try {
      if (await keeping.renew()) leaseEnds = started + leaseMs;
      else abort(new OutboxClaimLost('The claim was taken by another sender.'));
    } catch (error) {
      onError(error);
      // Unconfirmed past the lease's end, another process may have claimed the message.
      if (now().getTime() >= leaseEnds)
        abort(new OutboxClaimLost('The lease ran out before a renewal succeeded.'));
    }
    if (!done && !controller.signal.aborted) schedule();
  };
  const timeout = setTimeout(
    () => abort(new OutboxSendTimeout(`The Mailer did not settle within ${keeping.timeoutMs} ms.`)),
    keeping.timeoutMs,
  );
  timeout.unref?.();
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
      once: true,
    });
  });
  // A Mailer that ignores the signal settles after we stopped listening: keep that quiet.
  aborted.catch(() => undefined);
  schedule();
  try {
    const sending = Promise.resolve().then(() => send(controller.signal));
    sending.catch(() => undefined);
    await Promise.race([sending, aborted]);
  } finally {
    done = true;
    clearTimeout(beat);
    clearTimeout(timeout);
  }
}
