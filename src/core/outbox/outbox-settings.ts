import { ScimConfigError } from '../../errors/index.js';
import type { OutboxOptions } from '../options.js';

/** The outbox options with their defaults applied, checked once at start. */
export type OutboxSettings = Required<OutboxOptions>;

/** The defaults of {@link OutboxOptions}, the one place they are written. */
const DEFAULTS: OutboxSettings = {
  maxAttempts: 8,
  retryBaseMs: 1000,
  retryMaxMs: 300_000,
  leaseMs: 60_000,
  sendTimeoutMs: 30_000,
  pollIntervalMs: 0,
};

// Durations that must be above zero; the others may be zero (retry at once, no polling).
const POSITIVE: ReadonlySet<keyof OutboxOptions> = new Set<keyof OutboxOptions>([
  'maxAttempts',
  'leaseMs',
  'sendTimeoutMs',
]);

/**
 * Applies the defaults to the outbox options and refuses values that cannot work.
 *
 * @throws ScimConfigError naming the option, for a value that is not a finite number, is
 * negative, or is zero where that would stop delivery (`maxAttempts`, `leaseMs`,
 * `sendTimeoutMs`).
 */
export function outboxSettings(options: OutboxOptions): OutboxSettings {
  const settings = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as (keyof OutboxOptions)[]) {
    const value = options[name] ?? DEFAULTS[name];
    const low = POSITIVE.has(name) ? value <= 0 : value < 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || low) {
      const least = POSITIVE.has(name) ? 'above 0' : '0 or more';
      throw new ScimConfigError(
        `createScim: outbox.${name} must be a finite number ${least} (got ${String(value)}).`,
      );
    }
    settings[name] = value;
  }
  return settings;
}

/** Returns the delay before retry number `attempts` (1 for the first): doubling, capped. */
export function retryDelay(settings: OutboxSettings, attempts: number): number {
  return Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** (attempts - 1));
}
