import { randomBytes } from 'node:crypto';

/** How long a console session lasts without a new sign-in. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/** The most sessions kept at once; the oldest goes first. */
const MAX_SESSIONS = 1000;

/** The console's sign-in sessions: a random id in an HttpOnly cookie names a tenant. */
export class Sessions {
  // Insertion order is age order: the first entry is the oldest.
  readonly #sessions = new Map<string, { tenant: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts a session for `tenant`; returns its id (256 random bits). */
  open(tenant: string): string {
    const id = randomBytes(32).toString('base64url');
    this.#sessions.set(id, { tenant, expires: this.now() + SESSION_TTL_MS });
    while (this.#sessions.size > MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    return id;
  }

  /** The tenant of a live session, or undefined. */
  tenant(id: string | undefined): string | undefined {
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (this.now() < session.expires) return session.tenant;
    this.#sessions.delete(id);
    return undefined;
  }

  /** Ends a session. */
  close(id: string | undefined): void {
    if (id !== undefined) this.#sessions.delete(id);
  }
}
