import type { Tenant } from '../../contracts/api-key-verifier.js';
import type { RequestTrace } from '../events/request-hub.js';
import type { RouteMatch } from '../routes.js';
import type { ScimRequest, ScimRequestHead } from '../types.js';

/**
 * One request as it passes the dispatcher's stages. Each stage takes the context the stage
 * before it left and adds what it learned: the tenant, then the route.
 */
export interface RequestContext {
  /** The request: its head, then the head with its body once the body is read. */
  readonly request: ScimRequestHead | ScimRequest;
  /** Its method, upper-case. */
  readonly method: string;
  /** Whether the request's body, if it declares one, is still unread on the connection. */
  readonly onWire: boolean;
  /** The request's record while someone listens to requests; `undefined` otherwise. */
  readonly trace: RequestTrace | undefined;
}

/** A request whose caller is known. */
export interface TenantContext extends RequestContext {
  /** The tenant its API key belongs to. */
  readonly tenant: Tenant;
}

/** A request that may go on to its handler once its body is read. */
export interface RoutedContext extends TenantContext {
  /** The handler the route table found, with the `{id}` segment and the resource type. */
  readonly match: RouteMatch;
  /** Whether the head declares a body still on the wire (`Content-Length`, chunked). */
  readonly declared: boolean;
}

// Each context is written out field by field: on Node 20 a spread that adds a member the source
// lacks (`{ ...context, tenant }`) takes V8's slow path, and a request makes several of them.

/** The context of an authenticated request. */
export function tenantContext(context: RequestContext, tenant: Tenant): TenantContext {
  const { request, method, onWire, trace } = context;
  return { request, method, onWire, trace, tenant };
}

/** The context of a routed request, with whether it declares a body still on the wire. */
export function routedContext(
  context: TenantContext,
  match: RouteMatch,
  declared: boolean,
): RoutedContext {
  const { request, method, onWire, trace, tenant } = context;
  return { request, method, onWire, trace, tenant, match, declared };
}

/** A routed context with the request as the handler reads it (its body read). */
export function withRequest(
  context: RoutedContext,
  request: ScimRequest,
  onWire: boolean = context.onWire,
): RoutedContext & { readonly request: ScimRequest } {
  const { method, trace, tenant, match, declared } = context;
  return { request, method, onWire, trace, tenant, match, declared };
}
