/** The organization a request acts for. */
export interface Tenant {
  /** Scopes every store call; users of other tenants are invisible. */
  readonly id: string;
  /**
   * The tenant's compatibility profile: which dialect rules its requests are read with, a
   * built-in (`strict`, `lenient`, `entra`, `okta`) or one of `createScim`'s `profiles`.
   * Without one, `createScim`'s `defaultProfile` (every rule on, unless set). A name the server
   * does not know answers 500 and is reported to `onError`. See docs/patch.md.
   */
  readonly profile?: string;
}

/**
 * Turns a bearer token into the calling organization. Returns `null` for an unknown token;
 * compare in constant time.
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
