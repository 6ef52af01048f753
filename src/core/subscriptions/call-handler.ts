import type { LoggedEvent } from '../../contracts/event-log.js';
import type { EventHandler } from './types.js';

/** The reason a handler call was aborted because it ran past `timeoutMs`. */
export class HandlerTimeout extends Error {
  override readonly name = 'HandlerTimeout';
}

/**
 * Calls `handler` once for `event` and resolves when it resolves; rejects with what it threw,
 * or with {@link HandlerTimeout} after `timeoutMs`, when its signal is aborted and the call is
 * no longer waited for. A handler that throws synchronously counts as one that rejected.
 */
export function callHandler(
  handler: EventHandler,
  event: LoggedEvent,
  attempt: number,
  timeoutMs: number,
): Promise<void> {
  const controller = new AbortController();
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      const reason = new HandlerTimeout(`The handler did not settle within ${timeoutMs} ms.`);
      controller.abort(reason);
      reject(reason);
    }, timeoutMs);
    timer.unref?.();
    let call: Promise<void>;
    try {
      call = Promise.resolve(handler(event, { signal: controller.signal, attempt }));
    } catch (error) {
      call = Promise.reject(error);
    }
    // A handler that ignores its signal settles after we stopped waiting: that is quiet.
    call.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

// An error as the store keeps it: bounded, and without the NUL a PostgreSQL text column refuses.
const MAX_ERROR = 1000;

/** Returns the text kept for a failed attempt's error. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replaceAll('\0', '\uFFFD').slice(0, MAX_ERROR);
}
