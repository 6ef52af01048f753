import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and checks the activation links in welcome emails, so that only the person who got the
 * email can mark the account activated.
 */
export class ActivationLinks {
  readonly #secret: string;
  readonly #origin: string;

  constructor(secret: string, origin: string) {
    this.#secret = secret;
    this.#origin = origin;
  }

  #sign(tenant: string, userId: string): string {
    return createHmac('sha256', this.#secret)
      .update(`${tenant}\u0000${userId}`)
      .digest('base64url');
  }

  /** Builds the link for one user. */
  linkFor(tenant: string, userId: string): string {
    const query = new URLSearchParams({ tenant, user: userId, token: this.#sign(tenant, userId) });
    return `${this.#origin}/activate?${query}`;
  }

  /** Returns the tenant and user of a valid link's query, or undefined. */
  verify(query: URLSearchParams): { tenant: string; userId: string } | undefined {
    const tenant = query.get('tenant');
    const userId = query.get('user');
    const token = query.get('token');
    if (!tenant || !userId || !token) return undefined;
    const expected = Buffer.from(this.#sign(tenant, userId));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given)
      ? { tenant, userId }
      : undefined;
  }
}
