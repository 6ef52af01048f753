import { isIPv6 } from 'node:net';

/** How many failed sign-ins the console answers before it asks a client or tenant to wait. */
export interface SignInLimits {
  /** Failed sign-ins allowed per client address (an IPv6 client: per /64) in one window. */
  readonly perClient: number;
  /** Failed sign-ins allowed per tenant named on the form, from all clients, in one window. */
  readonly perTenant: number;
  /** The window, in ms: a client or tenant past its allowance waits until its window ends. */
  readonly windowMs: number;
}

/** The defaults of {@link SignInLimits}. */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perClient: 10,
  perTenant: 30,
  windowMs: 10 * 60 * 1000,
};

/** The most clients and tenants whose failures are remembered at once; the oldest go first. */
export const MAX_TRACKED = 10_000;

interface Count {
  failures: number;
  readonly resets: number;
}

/**
 * The address a client is counted by: IPv4 as it is, IPv6 by its /64 (one host is usually
 * given a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function clientOf(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] ?? address;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * Counts failed console sign-ins per client and per tenant in fixed windows, so that keys
 * cannot be guessed at the rate the server answers. Memory is bounded by {@link MAX_TRACKED}.
 */
export class SignInLimiter {
  readonly #counts = new Map<string, Count>();

  constructor(
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The seconds to wait before the next sign-in of this client for this tenant, or 0 when it
   * may try now.
   */
  retryAfter(client: string, tenant: string): number {
    const waits = [
      this.#wait(`client ${client}`, this.limits.perClient),
      this.#wait(`tenant ${tenant}`, this.limits.perTenant),
    ];
    return Math.max(...waits);
  }

  /** Counts a failed sign-in against the client and the tenant it named. */
  fail(client: string, tenant: string): void {
    this.#count(`client ${client}`);
    this.#count(`tenant ${tenant}`);
  }

  #wait(key: string, allowed: number): number {
    const count = this.#live(key);
    if (count === undefined || count.failures < allowed) return 0;
    return Math.max(1, Math.ceil((count.resets - this.now()) / 1000));
  }

  #live(key: string): Count | undefined {
    const count = this.#counts.get(key);
    if (count === undefined || count.resets > this.now()) return count;
    this.#counts.delete(key);
    return undefined;
  }

  #count(key: string): void {
    const count = this.#live(key) ?? { failures: 0, resets: this.now() + this.limits.windowMs };
    count.failures++;
    // Re-inserted so that the map's first entry is the one counted longest ago.
    this.#counts.delete(key);
    this.#counts.set(key, count);
    if (this.#counts.size > MAX_TRACKED) this.#counts.delete(this.#counts.keys().next().value!);
  }
}
