import type { Scope, Tenant } from '../../contracts/api-key-verifier.js';
import { scimErrors } from '../../errors/index.js';
import { searchResources } from '../handlers/list-resources.js';
import { rootSearch } from '../handlers/root-search.js';
import type { RouteMatch } from '../routes.js';

// The POST handlers that only read: a search sends its query as a body (RFC 7644 §3.4.3).
const SEARCHES: ReadonlySet<unknown> = new Set([searchResources, rootSearch]);

/**
 * Names the scope a routed request needs: `scim:read` for GET and HEAD (reads, lists,
 * discovery, `/Me`) and for a `.search` POST, `scim:write` for everything else (POST, PUT,
 * PATCH, DELETE and `/Bulk`, whose operations are all writes).
 */
export function requiredScope(method: string, match: RouteMatch<unknown>): Scope {
  if (method === 'GET' || method === 'HEAD' || SEARCHES.has(match.handler)) return 'scim:read';
  return 'scim:write';
}

/**
 * Lets a request on only when its tenant's key holds the scope it needs (see
 * {@link requiredScope}). `scim:write` includes `scim:read`; a tenant without `scopes` holds
 * both. Checked once the request is routed and before its body is read, for a request and for
 * each operation of a `/Bulk` request alike.
 *
 * @throws ScimError 403 naming the scope the key lacks.
 */
export function requireScope(tenant: Tenant, method: string, match: RouteMatch<unknown>): void {
  const { scopes } = tenant;
  if (scopes === undefined || scopes.includes('scim:write')) return;
  const needed = requiredScope(method, match);
  if (scopes.includes(needed)) return;
  throw scimErrors.forbidden(
    `This API key holds ${scopes.length === 0 ? 'no scope' : scopes.join(', ')}; ` +
      `${method} here needs ${needed}. Use a key issued with that scope.`,
  );
}
