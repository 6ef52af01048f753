import { ScimConfigError } from '../../errors/index.js';
import type { SubscribeOptions } from './types.js';

/** The subscriber options with their defaults applied, checked once at subscribe. */
export interface SubscribeSettings {
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly initialMs: number;
  readonly maxMs: number;
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly types: readonly string[] | undefined;
  readonly startAfter: string | undefined;
}

/** The defaults, the one place they are written. */
const DEFAULTS = {
  timeoutMs: 10_000,
  maxAttempts: 20,
  initialMs: 1000,
  maxMs: 3_600_000,
  leaseMs: 60_000,
  pollIntervalMs: 1000,
  batchSize: 100,
  concurrency: 4,
} as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/**
 * Applies the defaults to a subscriber's options and refuses values that cannot work. `where`
 * names the options in an error as the host wrote them (default `events.subscribe("<name>")`).
 *
 * @throws ScimConfigError naming the option: a name that is not 1–100 letters, digits and
 *   `._:-`; a number that is not finite, is negative, or is zero or fractional where that
 *   cannot work; a lease shorter than twice the timeout.
 */
export function subscribeSettings(
  name: string,
  options: SubscribeOptions,
  where = `events.subscribe(${JSON.stringify(name)})`,
): SubscribeSettings {
  if (typeof name !== 'string' || !NAME.test(name))
    throw new ScimConfigError(
      `events.subscribe: the name must be 1 to 100 letters, digits, ".", "_", ":" or "-", starting with a letter or digit (got ${JSON.stringify(name)}).`,
    );
  const pick = (option: string, value: number | undefined, fallback: number, least: 0 | 1) => {
    const v = value ?? fallback;
    const whole = least === 1 && option !== 'timeoutMs' && option !== 'leaseMs';
    if (
      typeof v !== 'number' ||
      !Number.isFinite(v) ||
      v < least ||
      (whole && !Number.isInteger(v))
    )
      throw new ScimConfigError(
        `${where}: ${option} must be a finite ${whole ? 'whole ' : ''}number of at least ${least} (got ${String(v)}).`,
      );
    return v;
  };
  const settings: SubscribeSettings = {
    timeoutMs: pick('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs, 1),
    maxAttempts: pick('maxAttempts', options.maxAttempts, DEFAULTS.maxAttempts, 1),
    initialMs: pick('backoff.initialMs', options.backoff?.initialMs, DEFAULTS.initialMs, 0),
    maxMs: pick('backoff.maxMs', options.backoff?.maxMs, DEFAULTS.maxMs, 0),
    leaseMs: pick('leaseMs', options.leaseMs, DEFAULTS.leaseMs, 1),
    pollIntervalMs: pick('pollIntervalMs', options.pollIntervalMs, DEFAULTS.pollIntervalMs, 0),
    batchSize: pick('batchSize', options.batchSize, DEFAULTS.batchSize, 1),
    concurrency: pick('concurrency', options.concurrency, DEFAULTS.concurrency, 1),
    types: options.types === undefined ? undefined : [...options.types],
    startAfter: options.startAfter,
  };
  if (settings.leaseMs < 2 * settings.timeoutMs)
    throw new ScimConfigError(
      `${where}: leaseMs (${settings.leaseMs}) must be at least twice timeoutMs (${settings.timeoutMs}), so that a claim outlives every attempt made under it.`,
    );
  if (settings.types?.some((t) => typeof t !== 'string' || t === ''))
    throw new ScimConfigError(`${where}: types must be non-empty strings.`);
  return settings;
}

/**
 * Returns the delay before the retry that follows failed attempt number `attempts` (1 for the
 * first): `initialMs` doubled per attempt, capped at `maxMs`, then "equal jitter" (a random
 * point in its upper half), so that tenants failing together do not retry in step while no
 * delay is shorter than half the schedule's. `random` is `Math.random` but in tests.
 */
export function retryDelay(
  settings: Pick<SubscribeSettings, 'initialMs' | 'maxMs'>,
  attempts: number,
  random: () => number = Math.random,
): number {
  const full = Math.min(settings.maxMs, settings.initialMs * 2 ** Math.min(attempts - 1, 52));
  return Math.round(full / 2 + (full / 2) * random());
}
