import type { Mailer, SendOptions, WelcomeEmail } from '../../src/index.js';
import type { MailTestAids } from './config.js';

/** The error of a delivery failed on purpose by `SCIMKIT_MAIL_FAIL_FIRST`. */
export class SimulatedMailFailure extends Error {
  override readonly name = 'SimulatedMailFailure';
}

/** A Mailer with the test aids applied, and a way to cut short the deliveries it holds. */
export interface AidedMailer extends Mailer {
  /**
   * Fails every delivery waiting out `SCIMKIT_MAIL_DELAY_MS`, now and later, so that shutdown
   * need not wait; the welcome subscriber keeps those emails for the next start.
   */
  abort(): void;
}

/**
 * Wraps a Mailer with the development switches of the example server: fail the first attempts
 * of each email, or hold each delivery for a while. They let tests show that the welcome email
 * is retried and that a process killed between a write and its email loses nothing. Each attempt is
 * printed, so a test can see where a delivery stood.
 */
export function withMailTestAids(
  mailer: Mailer,
  aids: MailTestAids,
  print: (text: string) => void,
): AidedMailer {
  const attempts = new Map<string, number>();
  const waiting = new Set<() => void>();
  let aborted = false;
  return {
    async sendWelcome(email: WelcomeEmail, options: SendOptions) {
      const key = email.idempotencyKey;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      if (attempt <= aids.failFirst) {
        print(`[mail] attempt ${attempt} key=${key} failed (SCIMKIT_MAIL_FAIL_FIRST)`);
        throw new SimulatedMailFailure(`Simulated failure of attempt ${attempt} for ${key}`);
      }
      if (aids.delayMs > 0) {
        print(
          `[mail] attempt ${attempt} key=${key} held ${aids.delayMs} ms (SCIMKIT_MAIL_DELAY_MS)`,
        );
        await new Promise<void>((resolve, reject) => {
          if (aborted)
            return reject(new SimulatedMailFailure(`Delivery of ${key} refused: shutting down`));
          const cancel = () => {
            clearTimeout(timer);
            reject(new SimulatedMailFailure(`Delivery of ${key} cut short by shutdown`));
          };
          const timer = setTimeout(() => {
            waiting.delete(cancel);
            resolve();
          }, aids.delayMs);
          waiting.add(cancel);
          // The subscriber stopped waiting (its timeout): a held email is not sent after all.
          options.signal.addEventListener('abort', cancel, { once: true });
        });
      }
      attempts.delete(key);
      await mailer.sendWelcome(email, options);
    },
    abort() {
      aborted = true;
      for (const cancel of waiting) cancel();
      waiting.clear();
    },
  };
}
