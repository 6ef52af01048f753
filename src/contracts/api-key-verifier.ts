/** The organization a request acts for. */
export interface Tenant {
  /** Scopes every store call; users of other tenants are invisible. */
  readonly id: string;
  /** A compatibility profile name for IdP-specific behaviour, when the host sets one. */
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
  verify(token: string): Promise<Tenant | null> | Tenant | null;
}
