/**
 * What an API key may do. `scim:read` reads (GET, lists, `.search`, root search, discovery);
 * `scim:write` does everything, reads included.
 */
export type Scope = 'scim:read' | 'scim:write';

/** The organization a request acts for. */
export interface Tenant {
  /**
   * Scopes every store call; users of other tenants are invisible. A non-empty string of at
   * most 512 characters (no U+0000, no lone surrogate): anything else answers 500.
   */
  readonly id: string;
  /**
   * The tenant's compatibility profile: which dialect rules its requests are read with, a
   * built-in (`strict`, `lenient`, `entra`, `okta`) or one of `createScim`'s `profiles`.
   * Without one, `createScim`'s `defaultProfile` (every rule on, unless set). A name the server
   * does not know answers 500 and is reported to `onError`. See docs/patch.md.
   */
  readonly profile?: string;
  /**
   * What the key may do: `scim:read` (GET, lists, `.search`, discovery) or `scim:write`
   * (everything). Absent means everything. A request outside them answers 403. See docs/keys.md.
   */
  readonly scopes?: readonly Scope[];
}

/**
 * Turns a bearer token into the calling organization. Returns `null` for an unknown token;
 * compare in constant time. The answer is checked: anything but `null` or a well-formed
 * {@link Tenant} fails closed with a 500, reported to `onError`.
 *
 * @example
 * ```ts
 * const verifier = staticApiKeys([{ key: process.env.SCIM_KEY!, tenant: 'district-42' }]);
 * ```
 */
export interface ApiKeyVerifier {
  /**
   * Returns the tenant a bearer token belongs to, or `null` for an unknown token. Compare keys
   * in constant time; the core answers 401 for `null` without reading the body.
   */
  verify(token: string): Promise<Tenant | null> | Tenant | null;
}
