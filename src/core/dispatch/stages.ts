import type { ApiKeyVerifier, Tenant } from '../../contracts/api-key-verifier.js';
import { scimErrors, toScimError, type ScimError } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import { bearerKey } from '../auth/authenticate.js';
import { requireScope } from '../auth/require-scope.js';
import { isBulkOperation, type BulkOperationResponse } from '../handlers/context.js';
import { checkDeclaredBody, declaresBody } from '../http/declared-body.js';
import { getHeader } from '../http/headers.js';
import { errorResponse } from '../http/respond.js';
import { targetPath } from '../http/request-target.js';
import type { RateLimit } from '../options.js';
import type { RouteMatch, Router } from '../routes.js';
import type { ResourceEndpoint } from '../handlers/resource-endpoint.js';
import type { BodyEnd, ScimRequest, ScimResponse } from '../types.js';
import {
  tenantContext,
  type RequestContext,
  type RoutedContext,
  type TenantContext,
} from './request-context.js';

/** How long a client refused for lack of room to buffer its body is asked to wait. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Asks the verifier about a request's bearer key: its answer, at once or as a promise, as the
 * verifier gives it (the dispatcher awaits only a promise).
 *
 * @throws ScimError 401 for a missing or malformed `authorization` header (see `bearerKey`).
 */
export function verifyKey(
  context: RequestContext,
  verifier: ApiKeyVerifier,
): ReturnType<ApiKeyVerifier['verify']> {
  return verifier.verify(bearerKey(getHeader(context.request.headers, 'authorization')));
}

/** The context of a request whose tenant is known, and its trace's tenant. */
export function authenticated(context: RequestContext, tenant: Tenant): TenantContext {
  if (context.trace) context.trace.tenant = tenant.id;
  return tenantContext(context, tenant);
}

/**
 * Runs the host's `context` hook, which builds `ScimRequest.context`; only after
 * authentication, so an anonymous client runs no host code, and in the core, so its failure is
 * one SCIM 500 on every framework. Without a hook, or when it returns `undefined`, the request's
 * own `context` stays.
 */
export function runContextHook(
  context: TenantContext,
  hook: (() => unknown) | undefined,
): TenantContext {
  const value = hook?.();
  if (value === undefined) return context;
  return { ...context, request: { ...context.request, context: value } };
}

/**
 * Asks the host's `rateLimit` hook whether an authenticated request may go on (a service
 * without one asks nothing).
 *
 * @throws ScimError 429, with `Retry-After` when the hook names a wait.
 */
export async function applyRateLimit(context: TenantContext, rateLimit: RateLimit): Promise<void> {
  const verdict = await rateLimit(context.tenant, context.request);
  if (verdict === true) return;
  throw scimErrors.tooManyRequests(
    typeof verdict === 'object' && verdict !== null ? verdict.retryAfterSeconds : undefined,
  );
}

/**
 * Finds the handler of a request below the base path. An absolute-form target
 * (`http://host/...`) routes like its path; HEAD routes like GET wherever GET is allowed
 * (RFC 9110 §9.3.2).
 *
 * @throws ScimError 404 for a path outside the base path or no endpoint, 405 for a method the
 *   endpoint does not allow.
 */
export function routeRequest(
  context: TenantContext,
  basePath: string,
  router: Router<ResourceEndpoint>,
): RouteMatch {
  const { request, method } = context;
  const path = targetPath(request.path);
  if (basePath !== '' && path !== basePath && !path.startsWith(`${basePath}/`))
    throw scimErrors.notFound(`No SCIM endpoint at ${previewJson(request.path)}.`);
  return router(method === 'HEAD' ? 'GET' : method, path, basePath.length);
}

/**
 * Lets a routed request on only when its tenant's key holds the scope the route needs.
 *
 * @throws ScimError 403 (see `requireScope`).
 */
export function authoriseScope(context: TenantContext, match: RouteMatch): void {
  requireScope(context.tenant, context.method, match);
}

/**
 * Checks the body a request declares before a byte of it is read: its media type and its
 * `Content-Length`; says whether one is declared and still on the wire.
 *
 * @throws ScimError 415 for a media type scimkit does not read, 413 for a declared length over
 *   `maxBodyBytes`.
 */
export function checkBody(context: TenantContext, maxBodyBytes: number): boolean {
  const declared = context.onWire && declaresBody(context.request.headers);
  if (declared) checkDeclaredBody(context.request.headers, maxBodyBytes);
  return declared;
}

/**
 * The request of a routed context with the body the adapter read; the head itself when the
 * body is already there.
 */
export function withBody(context: RoutedContext, body: unknown): ScimRequest {
  const { request } = context;
  if (body === undefined || (request as ScimRequest).body === body) return request;
  // Written out rather than spread, as the contexts are (see `request-context.ts`); a member the
  // head lacks is present as `undefined`, which reads the same.
  const { method, path, query, headers, baseUrl, context: hostContext } = request as ScimRequest;
  return { method, path, query, headers, baseUrl, context: hostContext, body } as ScimRequest;
}

/** The error for a body the adapter did not read whole, which no handler may see. */
export function unreadBody(end: Exclude<BodyEnd, 'complete' | 'cut'>): ScimError {
  if (end === 'timeout') return scimErrors.requestTimeout();
  if (end === 'busy')
    return scimErrors.serviceUnavailable(
      'The server is reading too many request bodies at once; send this request again shortly.',
      BUSY_RETRY_AFTER_SECONDS,
    );
  return scimErrors.invalidSyntax('The request body ended before it was complete.');
}

/**
 * Finishes an answer for the wire: HEAD answers exactly as GET would, errors included, without
 * the body (RFC 9110 §9.3.2); an answer that leaves body bytes unread carries
 * `connection: close`, since reading them would cost the server as much as serving them and
 * draining would let a client hold it (docs/limits.md).
 */
export function finish(response: ScimResponse, method: string, close: boolean): ScimResponse {
  if (!close && method !== 'HEAD') return response;
  return {
    status: response.status,
    headers: close ? { ...response.headers, connection: 'close' } : response.headers,
    body: method === 'HEAD' ? undefined : response.body,
  };
}

/**
 * Turns a fault into its SCIM answer; a 500's fault goes to `reportError`. A `/Bulk`
 * operation's refusal carries its ScimError as a value, which the BulkResponse shows.
 */
export function refusal(
  error: unknown,
  context: RequestContext,
  reportError: (error: unknown, request?: ScimRequest) => void,
): BulkOperationResponse {
  const scimError = toScimError(error);
  const { request, method, onWire } = context;
  if (scimError.status === 500) reportError(error, request as ScimRequest);
  const response = finish(
    errorResponse(scimError),
    method,
    onWire && declaresBody(request.headers),
  );
  return isBulkOperation(request as ScimRequest) ? { ...response, error: scimError } : response;
}
