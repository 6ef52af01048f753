import type { ApiKeyVerifier, Tenant } from '../contracts/api-key-verifier.js';
import { scimErrors, toScimError } from '../errors/index.js';
import { authenticate } from './auth/authenticate.js';
import { checkDeclaredBody, declaresBody } from './http/declared-body.js';
import { getHeader } from './http/headers.js';
import type { RequestHub, RequestTrace } from './events/request-hub.js';
import { errorResponse } from './http/respond.js';
import type { RateLimit } from './options.js';
import type { RouteMatch } from './routes.js';
import type {
  BodyEnd,
  ScimAdmission,
  ScimBodyPhase,
  ScimRequest,
  ScimRequestHead,
  ScimResponse,
} from './types.js';

/** What the two phases of a request need from `createScim`. */
export interface PhaseSettings {
  readonly verifier: ApiKeyVerifier;
  readonly rateLimit: RateLimit | undefined;
  readonly maxBodyBytes: number;
  /** Finds the handler of a request (upper-case method); throws 404 or 405. */
  readonly route: (request: ScimRequestHead, method: string) => RouteMatch;
  /** Runs a routed request's handler; `trace` while someone listens to the request. */
  readonly run: (
    match: RouteMatch,
    request: ScimRequest,
    tenant: Tenant,
    trace?: RequestTrace,
  ) => Promise<ScimResponse>;
  /** Receives the fault behind every 500. */
  readonly reportError: (error: unknown, request?: ScimRequest) => void;
  /** Hears of every answered request, when someone listens. */
  readonly requests?: RequestHub;
}

type Trace = RequestTrace | undefined;

/** The two entry points of a service, as {@link Scim} exposes them. */
export interface RequestPhases {
  begin(head: ScimRequestHead, context?: () => unknown): Promise<ScimAdmission>;
  handle(request: ScimRequest): Promise<ScimResponse>;
  /**
   * Answers a request of a tenant already authenticated (an operation of a `/Bulk` request):
   * the route, the handler and the request trace of `handle`, without authentication or the
   * host's `rateLimit` hook. Never rejects.
   */
  handleAs(request: ScimRequest, tenant: Tenant): Promise<ScimResponse>;
}

// One `connection: close` for every answer that leaves body bytes unread: reading them would
// cost the server as much as serving them, and draining lets a client hold it (DESIGN.md §6).
function finish(response: ScimResponse, method: string, close: boolean): ScimResponse {
  if (!close && method !== 'HEAD') return response;
  return {
    status: response.status,
    headers: close ? { ...response.headers, connection: 'close' } : response.headers,
    // HEAD answers exactly as GET would, errors included, without the body (RFC 9110 §9.3.2).
    body: method === 'HEAD' ? undefined : response.body,
  };
}

function withBody(head: ScimRequestHead, body: unknown): ScimRequest {
  return body === undefined || (head as ScimRequest).body === body ? head : { ...head, body };
}

/**
 * Builds a service's request pipeline in two phases: the head (authentication, the host's
 * `context` and `rateLimit` hooks, routing, the declared body), decided before a body byte is
 * read, then the handler with the body. `handle` runs both for a request whose body is at hand,
 * so there is one path, not two copies.
 */
export function requestPhases(settings: PhaseSettings): RequestPhases {
  const { verifier, rateLimit, maxBodyBytes, route, run, reportError, requests } = settings;

  // Turns a fault of the head phase into its answer; `onWire` says the body is still unread.
  function refuse(
    error: unknown,
    head: ScimRequestHead,
    method: string,
    onWire: boolean,
    trace: Trace,
  ) {
    const scimError = toScimError(error);
    if (scimError.status === 500) reportError(error, head);
    const response = finish(errorResponse(scimError), method, onWire && declaresBody(head.headers));
    if (trace) requests?.finish(trace, response);
    return response;
  }

  async function admit(
    head: ScimRequestHead,
    method: string,
    context: (() => unknown) | undefined,
    onWire: boolean,
    trace: Trace,
  ): Promise<ScimAdmission> {
    let request = head;
    try {
      const tenant = await authenticate(getHeader(head.headers, 'authorization'), verifier);
      if (trace) trace.tenant = tenant.id;
      // The host's hook runs here, not in the adapter, so that its failure is one SCIM 500
      // on every framework; only after authentication, so an anonymous client runs no host code.
      if (context !== undefined) {
        const value = context();
        if (value !== undefined) request = { ...head, context: value };
      }
      const verdict = rateLimit === undefined ? true : await rateLimit(tenant, request);
      if (verdict !== true) {
        throw scimErrors.tooManyRequests(
          typeof verdict === 'object' && verdict !== null ? verdict.retryAfterSeconds : undefined,
        );
      }
      return routed(request, method, tenant, onWire, trace);
    } catch (error) {
      return refuse(error, request, method, onWire, trace);
    }
  }

  function routed(
    request: ScimRequestHead,
    method: string,
    tenant: Tenant,
    onWire: boolean,
    trace: Trace,
  ): ScimBodyPhase {
    const match = route(request, method);
    const declared = onWire && declaresBody(request.headers);
    if (declared) checkDeclaredBody(request.headers, maxBodyBytes);
    return async (body, end = 'complete') => {
      if (!trace || !requests) return answer(match, request, method, tenant, body, end, declared);
      requests.capture(trace);
      const response = await answer(match, request, method, tenant, body, end, declared, trace);
      requests.finish(trace, response, body, match.id);
      return response;
    };
  }

  async function answer(
    match: RouteMatch,
    head: ScimRequestHead,
    method: string,
    tenant: Tenant,
    body: unknown,
    end: BodyEnd,
    declared: boolean,
    trace?: RequestTrace,
  ): Promise<ScimResponse> {
    if (end === 'timeout' || end === 'aborted') {
      const error =
        end === 'timeout'
          ? scimErrors.requestTimeout()
          : scimErrors.invalidSyntax('The request body ended before it was complete.');
      return finish(errorResponse(error), method, true);
    }
    const request = withBody(head, body);
    let response: ScimResponse;
    try {
      response = await run(match, request, tenant, trace);
    } catch (error) {
      response = refuse(error, request, method, false, undefined);
    }
    // A body cut at the limit, or declared but not read (a Fetch `Request` has none on GET), has
    // bytes left on the wire: close rather than read them.
    return finish(response, method, end === 'cut' || (declared && body === undefined));
  }

  return {
    begin: (head, context) =>
      admit(head, head.method.toUpperCase(), context, true, requests?.start(head)),
    async handleAs(request, tenant) {
      const method = request.method.toUpperCase();
      const trace = requests?.start(request);
      if (trace) trace.tenant = tenant.id;
      let phase: ScimBodyPhase;
      try {
        phase = routed(request, method, tenant, false, trace);
      } catch (error) {
        return refuse(error, request, method, false, trace);
      }
      return phase(request.body);
    },
    async handle(request) {
      const method = request.method.toUpperCase();
      const admission = await admit(request, method, undefined, false, requests?.start(request));
      return typeof admission === 'function' ? admission(request.body) : admission;
    },
  };
}
