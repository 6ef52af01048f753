import { randomBytes } from 'node:crypto';
import type { Scope } from '../../../src/index.js';

/** How long a console session lasts without a new sign-in. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/** How many console sessions are kept, per tenant and in all. */
export interface SessionLimits {
  /** Sessions kept per tenant; a new sign-in past it ends that tenant's oldest session. */
  readonly perTenant: number;
  /** Sessions kept in all; past it the tenant holding the most loses its oldest session. */
  readonly total: number;
}

/** The defaults of {@link SessionLimits}. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { perTenant: 20, total: 1000 };

/** What a live session knows. */
export interface Session {
  readonly tenant: string;
  /** The scopes of the key it was opened with; `undefined` means every scope. */
  readonly scopes: readonly Scope[] | undefined;
  /** The key store's id of the key it was opened with, so that revoking the key ends it. */
  readonly keyId: string | undefined;
  /** The session's anti-forgery token: every state-changing form carries it. */
  readonly csrf: string;
  readonly expires: number;
}

const randomId = () => randomBytes(32).toString('base64url');

/**
 * The console's sign-in sessions: a random id in an HttpOnly cookie names a tenant. Bounded
 * per tenant and in all, so that one tenant signing in again and again only ends its own
 * sessions, never another tenant's.
 */
export class Sessions {
  // Insertion order is age order in both maps: the first entry is the oldest.
  readonly #sessions = new Map<string, Session>();
  readonly #byTenant = new Map<string, Set<string>>();

  /** A new random token of 256 bits, URL-safe: a session id or an anti-forgery token. */
  static newToken(): string {
    return randomId();
  }

  constructor(
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many sessions are kept now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Starts a session for `tenant`; returns its id (256 random bits). */
  open(opened: Pick<Session, 'tenant' | 'scopes' | 'keyId'>): string {
    this.#dropExpired();
    const id = randomId();
    const { tenant } = opened;
    this.#sessions.set(id, { ...opened, csrf: randomId(), expires: this.now() + SESSION_TTL_MS });
    const own = this.#byTenant.get(tenant) ?? new Set<string>();
    own.add(id);
    this.#byTenant.set(tenant, own);
    while (own.size > this.limits.perTenant) this.close(own.values().next().value);
    while (this.#sessions.size > this.limits.total) this.close(this.#oldestOfLargestTenant());
    return id;
  }

  /** The live session of an id, or undefined. */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (this.now() < session.expires) return session;
    this.close(id);
    return undefined;
  }

  /** Ends a session. */
  close(id: string | undefined): void {
    if (id === undefined) return;
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    const own = this.#byTenant.get(session.tenant);
    own?.delete(id);
    if (own?.size === 0) this.#byTenant.delete(session.tenant);
  }

  // Every session lasts as long, so the expired ones are the oldest: at the front.
  #dropExpired(): void {
    const now = this.now();
    for (const [id, session] of this.#sessions) {
      if (session.expires > now) break;
      this.close(id);
    }
  }

  // The tenant with the most sessions gives one up (ties: the one with the oldest session).
  #oldestOfLargestTenant(): string | undefined {
    let largest: Set<string> | undefined;
    for (const [, session] of this.#sessions) {
      const own = this.#byTenant.get(session.tenant);
      if (own !== undefined && (largest === undefined || own.size > largest.size)) largest = own;
    }
    return largest?.values().next().value;
  }
}
