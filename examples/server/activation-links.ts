import { createHmac, timingSafeEqual } from 'node:crypto';
import { ACCOUNT_SCHEMA, type ScimUser, type UserLifecycle } from '../../src/index.js';
import type { InvitationLedger } from './invitations.js';

/** Default lifetime of an activation link: 7 days from the email's delivery. */
export const DEFAULT_ACTIVATION_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What a link says once its signature holds. */
interface LinkClaims {
  readonly tenant: string;
  readonly userId: string;
  /** The idempotency key of the welcome email that carried the link. */
  readonly invitation: string;
  /** Epoch milliseconds after which the link is refused. */
  readonly expiresAt: number;
}

/** Why a link does not activate anything; each has its own page. */
export type LinkRefusal = 'invalid' | 'expired' | 'gone' | 'used' | 'replaced' | 'unavailable';

/** The outcome of {@link ActivationLinks.check}. */
export type LinkCheck =
  | { readonly ok: true; readonly tenant: string; readonly user: ScimUser }
  | { readonly ok: false; readonly refusal: LinkRefusal };

/** The email fields a link is made from. */
export interface Invitation {
  readonly tenant: string;
  readonly userId: string;
  /** The welcome email's idempotency key. */
  readonly id: string;
}

/**
 * Signs and checks the activation links in welcome emails. A link is signed (HMAC-SHA-256),
 * names its tenant, user and invitation, and expires; it activates only an `Invited` account
 * whose current invitation is the link's own, so it works once and dies when the account is
 * activated, deactivated, or sent a newer invitation.
 */
export class ActivationLinks {
  readonly #secret: string;
  readonly #origin: string;
  readonly #ledger: InvitationLedger;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: {
    readonly secret: string;
    readonly origin: string;
    readonly ledger: InvitationLedger;
    readonly ttlMs?: number;
    readonly now?: () => number;
  }) {
    this.#secret = options.secret;
    this.#origin = options.origin;
    this.#ledger = options.ledger;
    this.#ttlMs = options.ttlMs ?? DEFAULT_ACTIVATION_LINK_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  #sign(payload: string): Buffer {
    return createHmac('sha256', this.#secret).update(`activation-link.${payload}`).digest();
  }

  /**
   * Records `invitation` as the user's current one (older links stop working) and returns its
   * link. Called when the email is delivered, so the lifetime counts from then.
   */
  async issue(invitation: Invitation): Promise<string> {
    await this.#ledger.issue(invitation.tenant, invitation.userId, invitation.id);
    const claims = {
      t: invitation.tenant,
      u: invitation.userId,
      i: invitation.id,
      e: this.#now() + this.#ttlMs,
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const token = `${payload}.${this.#sign(payload).toString('base64url')}`;
    return `${this.#origin}/activate?token=${token}`;
  }

  /** Returns the claims of a token whose signature holds, else undefined. */
  #read(token: string): LinkClaims | undefined {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = this.#sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const { t, u, i, e } = claims;
    if (typeof t !== 'string' || typeof u !== 'string' || typeof i !== 'string') return undefined;
    if (typeof e !== 'number') return undefined;
    return { tenant: t, userId: u, invitation: i, expiresAt: e };
  }

  /**
   * Tells whether `token` may activate its account now, and whose account that is. Changes
   * nothing: a mail scanner's GET runs this too.
   */
  async check(token: string | null, users: UserLifecycle): Promise<LinkCheck> {
    const claims = token ? this.#read(token) : undefined;
    if (!claims) return { ok: false, refusal: 'invalid' };
    if (this.#now() >= claims.expiresAt) return { ok: false, refusal: 'expired' };
    const user = await users.get(claims.tenant, claims.userId);
    if (!user) return { ok: false, refusal: 'gone' };
    const status = user[ACCOUNT_SCHEMA].status;
    if (status === 'Activated') return { ok: false, refusal: 'used' };
    if (status !== 'Invited') return { ok: false, refusal: 'unavailable' };
    const current = await this.#ledger.current(claims.tenant, claims.userId);
    if (current !== claims.invitation) return { ok: false, refusal: 'replaced' };
    return { ok: true, tenant: claims.tenant, user };
  }

  /** Kills every link sent to the user so far. */
  revoke(tenant: string, userId: string): Promise<void> {
    return this.#ledger.revoke(tenant, userId);
  }
}
