import type { ApiKeyVerifier, Tenant } from '../contracts/api-key-verifier.js';
import { scimErrors, toScimError } from '../errors/index.js';
import { authenticate, isThenable } from './auth/authenticate.js';
import { requireScope } from './auth/require-scope.js';
import { checkDeclaredBody, declaresBody } from './http/declared-body.js';
import { getHeader } from './http/headers.js';
import type { RequestHub, RequestTrace } from './events/request-hub.js';
import {
  isBulkOperation,
  type BulkOperationRequest,
  type BulkOperationResponse,
  type OperationAnswer,
  type RunOperation,
} from './handlers/context.js';
import { errorResponse } from './http/respond.js';
import type { RateLimit, RateLimitVerdict } from './options.js';
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
  /**
   * Runs a routed request's handler; `trace` while someone listens to the request. The handler
   * is given `runOperation`, this pipeline's own entry for a `/Bulk` operation.
   */
  readonly run: (
    match: RouteMatch,
    request: ScimRequest,
    tenant: Tenant,
    trace: RequestTrace | undefined,
    runOperation: RunOperation,
  ) => Promise<ScimResponse>;
  /** Receives the fault behind every 500. */
  readonly reportError: (error: unknown, request?: ScimRequest) => void;
  /** Hears of every answered request, when someone listens. */
  readonly requests?: RequestHub;
}

type Trace = RequestTrace | undefined;

/** The two entry points of a service, as {@link Scim} exposes them. */
export interface RequestPhases {
  begin(head: ScimRequestHead, context?: () => unknown): ScimAdmission | Promise<ScimAdmission>;
  handle(request: ScimRequest): Promise<ScimResponse>;
}

type Admitted = ScimAdmission | Promise<ScimAdmission>;

// One `connection: close` for every answer that leaves body bytes unread: reading them would
// cost the server as much as serving them, and draining lets a client hold it (docs/limits.md).
/** How long a client refused for lack of room to buffer its body is asked to wait. */
const BUSY_RETRY_AFTER_SECONDS = 1;

// The error for a body the adapter did not read whole and that no handler may see.
function unreadBody(end: 'timeout' | 'aborted' | 'busy') {
  if (end === 'timeout') return scimErrors.requestTimeout();
  if (end === 'busy')
    return scimErrors.serviceUnavailable(
      'The server is reading too many request bodies at once; send this request again shortly.',
      BUSY_RETRY_AFTER_SECONDS,
    );
  return scimErrors.invalidSyntax('The request body ended before it was complete.');
}

function finish(response: ScimResponse, method: string, close: boolean): ScimResponse {
  if (!close && method !== 'HEAD') return response;
  return {
    status: response.status,
    headers: close ? { ...response.headers, connection: 'close' } : response.headers,
    // HEAD answers exactly as GET would, errors included, without the body (RFC 9110 §9.3.2).
    body: method === 'HEAD' ? undefined : response.body,
  };
}

// A copy of a request with another `context` and `body`, written out field by field: a spread
// that adds a key the source lacks (`{ ...head, body }`) takes V8's slow path on Node 20. A field the head lacks is
// present as `undefined`, which reads the same.
function requestOf(head: ScimRequestHead, context: unknown, body: unknown): ScimRequest {
  const { method, path, query, headers, baseUrl } = head;
  return { method, path, query, headers, baseUrl, context, body } as ScimRequest;
}

// A `/Bulk` operation's answer as values: the resource written or the ScimError, not text.
function operationAnswer(response: BulkOperationResponse): OperationAnswer {
  const { status, headers, resource, error } = response;
  return { status, headers, resource, error };
}

function withBody(head: ScimRequestHead, body: unknown): ScimRequest {
  if (body === undefined || (head as ScimRequest).body === body) return head;
  return requestOf(head, head.context, body);
}

/**
 * Builds a service's request pipeline in two phases: the head (authentication, the host's
 * `context` and `rateLimit` hooks, routing, the declared body), decided before a body byte is
 * read, then the handler with the body. `handle` runs both for a request whose body is at hand,
 * so there is one path, not two copies. Every step that can answer without a promise does.
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
    const text = finish(errorResponse(scimError), method, onWire && declaresBody(head.headers));
    // A `/Bulk` operation's refusal carries its ScimError, which the BulkResponse shows.
    const response: BulkOperationResponse = isBulkOperation(head)
      ? { ...text, error: scimError }
      : text;
    if (trace) requests?.finish(trace, response);
    return response;
  }

  function admit(
    head: ScimRequestHead,
    method: string,
    context: (() => unknown) | undefined,
    onWire: boolean,
    trace: Trace,
  ): Admitted {
    let tenant: Tenant | Promise<Tenant>;
    try {
      tenant = authenticate(getHeader(head.headers, 'authorization'), verifier);
    } catch (error) {
      return refuse(error, head, method, onWire, trace);
    }
    if (!isThenable(tenant)) return authorised(head, method, tenant, context, onWire, trace);
    return tenant.then(
      (found) => authorised(head, method, found, context, onWire, trace),
      (error: unknown) => refuse(error, head, method, onWire, trace),
    );
  }

  function authorised(
    head: ScimRequestHead,
    method: string,
    tenant: Tenant,
    context: (() => unknown) | undefined,
    onWire: boolean,
    trace: Trace,
  ): Admitted {
    let request = head;
    if (trace) trace.tenant = tenant.id;
    try {
      // The host's hook runs here, not in the adapter, so that its failure is one SCIM 500
      // on every framework; only after authentication, so an anonymous client runs no host code.
      if (context !== undefined) {
        const value = context();
        if (value !== undefined) request = requestOf(head, value, (head as ScimRequest).body);
      }
      if (rateLimit === undefined) return routed(request, method, tenant, onWire, trace);
      const verdict = rateLimit(tenant, request);
      if (!isThenable(verdict)) return allowed(verdict, request, method, tenant, onWire, trace);
      return Promise.resolve(verdict).then(
        (settled) => allowed(settled, request, method, tenant, onWire, trace),
        (error: unknown) => refuse(error, request, method, onWire, trace),
      );
    } catch (error) {
      return refuse(error, request, method, onWire, trace);
    }
  }

  function allowed(
    verdict: RateLimitVerdict,
    request: ScimRequestHead,
    method: string,
    tenant: Tenant,
    onWire: boolean,
    trace: Trace,
  ): ScimAdmission {
    try {
      if (verdict === true) return routed(request, method, tenant, onWire, trace);
      throw scimErrors.tooManyRequests(
        typeof verdict === 'object' && verdict !== null ? verdict.retryAfterSeconds : undefined,
      );
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
    requireScope(tenant, method, match);
    const declared = onWire && declaresBody(request.headers);
    if (declared) checkDeclaredBody(request.headers, maxBodyBytes);
    return (body, end = 'complete') => {
      if (!trace || !requests) return answer(match, request, method, tenant, body, end, declared);
      requests.capture(trace);
      return answer(match, request, method, tenant, body, end, declared, trace).then((response) => {
        requests.finish(trace, response, body, match.id);
        return response;
      });
    };
  }

  function answer(
    match: RouteMatch,
    head: ScimRequestHead,
    method: string,
    tenant: Tenant,
    body: unknown,
    end: BodyEnd,
    declared: boolean,
    trace?: RequestTrace,
  ): Promise<ScimResponse> {
    if (end !== 'complete' && end !== 'cut')
      return Promise.resolve(finish(errorResponse(unreadBody(end)), method, true));
    const request = withBody(head, body);
    let answered: Promise<ScimResponse>;
    try {
      answered = run(match, request, tenant, trace, runOperation).catch((error: unknown) =>
        refuse(error, request, method, false, undefined),
      );
    } catch (error) {
      answered = Promise.resolve(refuse(error, request, method, false, undefined));
    }
    // A body cut at the limit, or declared but not read (a Fetch `Request` has none on GET), has
    // bytes left on the wire: close rather than read them.
    const close = end === 'cut' || (declared && body === undefined);
    if (!close && method !== 'HEAD') return answered;
    return answered.then((response) => finish(response, method, close));
  }

  // A body phase, or the answer as a promise.
  const proceed = (admission: ScimAdmission, body: unknown): Promise<ScimResponse> =>
    typeof admission === 'function' ? admission(body) : Promise.resolve(admission);

  // An operation of a `/Bulk` request, of a tenant already authenticated: the pipeline of
  // `handle` past authentication (the host's `rateLimit` hook, asked about this operation so
  // each costs what it would sent alone; the route, the scope, the handler, the request trace),
  // without the `context` hook, answered as values.
  function runOperation(request: BulkOperationRequest, tenant: Tenant): Promise<OperationAnswer> {
    const method = request.method.toUpperCase();
    const admitted = authorised(
      request,
      method,
      tenant,
      undefined,
      false,
      requests?.start(request),
    );
    const answered = isThenable(admitted)
      ? admitted.then((admission) => proceed(admission, request.body))
      : proceed(admitted, request.body);
    return answered.then(operationAnswer);
  }

  return {
    begin: (head, context) =>
      admit(head, head.method.toUpperCase(), context, true, requests?.start(head)),
    handle(request) {
      const admitted = admit(
        request,
        request.method.toUpperCase(),
        undefined,
        false,
        requests?.start(request),
      );
      return isThenable(admitted)
        ? admitted.then((admission) => proceed(admission, request.body))
        : proceed(admitted, request.body);
    },
  };
}
