import type { ApiKeyVerifier, Tenant } from '../../contracts/api-key-verifier.js';
import type { RequestHub } from '../events/request-hub.js';
import type {
  BulkOperationRequest,
  BulkOperationResponse,
  HandlerConfig,
  OperationAnswer,
  OperationRunner,
} from '../handlers/context.js';
import type { ResourceEndpoint } from '../handlers/resource-endpoint.js';
import { errorResponse } from '../http/respond.js';
import type { RequestOrigin } from '../http/request-origin.js';
import type { RateLimit } from '../options.js';
import type { ProfileSelector } from '../profiles.js';
import { routeTable, type Router } from '../routes.js';
import type { ServedSet } from '../served-set.js';
import type {
  BodyEnd,
  ScimAdmission,
  ScimRequest,
  ScimRequestHead,
  ScimResponse,
} from '../types.js';
import {
  routedContext,
  tenantContext,
  withRequest,
  type RequestContext,
  type RoutedContext,
  type TenantContext,
} from './request-context.js';
import {
  applyRateLimit,
  authenticated,
  authoriseScope,
  checkBody,
  finish,
  refusal,
  routeRequest,
  runContextHook,
  unreadBody,
  verifyKey,
  withBody,
} from './stages.js';
import { verifiedTenant } from '../auth/authenticate.js';

/** What the dispatcher is built from: the compiled service's settings and runtime pieces. */
export interface DispatcherSettings {
  /** The path every endpoint is below, or `''`. */
  readonly basePath: string;
  /** The largest body any handler reads: a larger declared `Content-Length` answers 413. */
  readonly maxBodyBytes: number;
  readonly verifier: ApiKeyVerifier;
  readonly rateLimit: RateLimit | undefined;
  /** Picks the URL an answer's URLs start with. */
  readonly originOf: RequestOrigin;
  /** The endpoints served under each tenant's profile. */
  readonly profiles: ProfileSelector<ServedSet>;
  /** The handlers' settings, with the default profile's endpoints. */
  readonly config: HandlerConfig;
  /** Hears of every answered request, when someone listens. */
  readonly requests: RequestHub;
  /** Receives the fault behind every 500. */
  readonly reportError: (error: unknown, request?: ScimRequest) => void;
}

/**
 * Takes a request through named stages, each a function of one request context: authenticate,
 * the host's `context` hook, the rate limit, route, authorise the scope, check the declared
 * body (the head, decided before a body byte is read); then, with the body, run the handler
 * and finish the answer (HEAD, `connection: close`). The head's stages have one synchronous
 * branch, taken when the verifier answers at once and no `rateLimit` hook is set; everything
 * after is plain `async` code. A `/Bulk` operation enters after authentication
 * ({@link Dispatcher.runOperation}).
 */
export class Dispatcher implements OperationRunner {
  readonly #settings: DispatcherSettings;
  readonly #router: Router<ResourceEndpoint>;
  // Where each served type sits in every profile's set: the route table names the default's.
  readonly #rowOf: ReadonlyMap<ResourceEndpoint, number>;

  /** Builds the route table of the default profile's endpoints. */
  constructor(settings: DispatcherSettings) {
    this.#settings = settings;
    const { endpoints, me } = settings.config;
    this.#router = routeTable(new Map(endpoints.map((e) => [e.type.endpoint.slice(1), e])), {
      me: me !== undefined,
    });
    this.#rowOf = new Map(endpoints.map((e, i) => [e, i]));
  }

  /**
   * Decides on a request from its head alone (see `Scim.begin`): the answer, or the body phase.
   * Never rejects.
   */
  begin(head: ScimRequestHead, hook?: () => unknown): Promise<ScimAdmission> {
    return Promise.resolve(this.#admit(this.#start(head, true), hook));
  }

  /** Answers a request whose body is at hand, through the same stages. Never rejects. */
  async handle(request: ScimRequest): Promise<ScimResponse> {
    const admission = await this.#admit(this.#start(request, false), undefined);
    return typeof admission === 'function' ? admission(request.body) : admission;
  }

  /**
   * Answers an operation of a `/Bulk` request, of a tenant already authenticated: the stages
   * past authentication (the rate limit, asked about this operation so that each costs what it
   * would sent alone; the route, the scope, the handler, the request trace), without the
   * `context` hook, as values. Never rejects.
   */
  async runOperation(request: BulkOperationRequest, tenant: Tenant): Promise<OperationAnswer> {
    const context = this.#start(request, false);
    if (context.trace) context.trace.tenant = tenant.id;
    const admission = await this.#admitTenant(tenantContext(context, tenant), undefined);
    const response: BulkOperationResponse =
      typeof admission === 'function' ? await admission(request.body) : admission;
    const { status, headers, resource, error } = response;
    return { status, headers, resource, error };
  }

  #start(request: ScimRequestHead, onWire: boolean): RequestContext {
    const trace = this.#settings.requests.start(request);
    return { request, method: request.method.toUpperCase(), onWire, trace };
  }

  // The dispatcher's one synchronous branch: a verifier that answers at once (`staticApiKeys`
  // on Node) and a service without a `rateLimit` hook take the head stages with no promise
  // between them; a verifier's promise or the hook's is awaited, through the same stages.
  #admit(
    context: RequestContext,
    hook: (() => unknown) | undefined,
  ): ScimAdmission | Promise<ScimAdmission> {
    let answer: ReturnType<ApiKeyVerifier['verify']>;
    try {
      answer = verifyKey(context, this.#settings.verifier);
    } catch (error) {
      return this.#refuse(error, context);
    }
    if (isPromiseLike(answer))
      return Promise.resolve(answer).then(
        (found) => this.#admitAnswer(context, found, hook),
        (error: unknown) => this.#refuse(error, context),
      );
    return this.#admitAnswer(context, answer, hook);
  }

  #admitAnswer(
    context: RequestContext,
    answer: Tenant | null | undefined,
    hook: (() => unknown) | undefined,
  ): ScimAdmission | Promise<ScimAdmission> {
    let tenant: Tenant;
    try {
      tenant = verifiedTenant(answer);
    } catch (error) {
      return this.#refuse(error, context);
    }
    return this.#admitTenant(authenticated(context, tenant), hook);
  }

  #admitTenant(
    context: TenantContext,
    hook: (() => unknown) | undefined,
  ): ScimAdmission | Promise<ScimAdmission> {
    let current = context;
    try {
      current = runContextHook(context, hook);
    } catch (error) {
      return this.#refuse(error, current);
    }
    const { rateLimit } = this.#settings;
    return rateLimit === undefined ? this.#route(current) : this.#limited(current, rateLimit);
  }

  async #limited(context: TenantContext, rateLimit: RateLimit): Promise<ScimAdmission> {
    try {
      await applyRateLimit(context, rateLimit);
    } catch (error) {
      return this.#refuse(error, context);
    }
    return this.#route(context);
  }

  // Route, scope and the declared body: the head's last stages, then the body phase.
  #route(context: TenantContext): ScimAdmission {
    try {
      const match = routeRequest(context, this.#settings.basePath, this.#router);
      authoriseScope(context, match);
      const declared = checkBody(context, this.#settings.maxBodyBytes);
      const routed = routedContext(context, match, declared);
      return (body, end = 'complete') => this.#answer(routed, body, end);
    } catch (error) {
      return this.#refuse(error, context);
    }
  }

  // A refusal of the head stages, heard as the request's answer.
  #refuse(error: unknown, context: RequestContext): ScimResponse {
    const response = refusal(error, context, this.#settings.reportError);
    if (context.trace) this.#settings.requests.finish(context.trace, response);
    return response;
  }

  // The answer to a request whose head was admitted, heard as the request's answer.
  async #answer(context: RoutedContext, body: unknown, end: BodyEnd): Promise<ScimResponse> {
    const { trace, method } = context;
    if (trace) this.#settings.requests.capture(trace);
    let response: ScimResponse;
    if (end !== 'complete' && end !== 'cut') {
      response = finish(errorResponse(unreadBody(end)), method, true);
    } else {
      const request = withBody(context, body);
      try {
        response = await this.#runHandler(withRequest(context, request));
      } catch (error) {
        const refused = withRequest(context, request, false);
        response = refusal(error, refused, this.#settings.reportError);
      }
      // A body cut at the limit, or declared but not read (a Fetch `Request` has none on GET),
      // has bytes left on the wire: close rather than read them.
      response = finish(
        response,
        method,
        end === 'cut' || (context.declared && body === undefined),
      );
    }
    if (trace) this.#settings.requests.finish(trace, response, body, context.match.id);
    return response;
  }

  // The handler of the route, with the endpoints of the tenant's profile (traced while someone
  // listens); a handler of no one type (the root search, `/Me`, `/Bulk`) reads with them too.
  #runHandler(context: RoutedContext & { readonly request: ScimRequest }): Promise<ScimResponse> {
    const { request, tenant, match, trace } = context;
    const { config, profiles, originOf, basePath, requests } = this.#settings;
    const origin = originOf(request) ?? '';
    const baseUrl = `${origin.endsWith('/') ? origin.slice(0, -1) : origin}${basePath}`;
    const set = profiles.configFor(tenant.profile, trace && requests.collect(trace));
    const { id } = match;
    if (match.endpoint === undefined) {
      const own =
        set.endpoints === config.endpoints
          ? config
          : { ...config, endpoints: set.endpoints, answers: set.answers };
      return match.handler({ request, tenant, id, baseUrl, config: own, dispatcher: this });
    }
    const endpoint = set.endpoints[this.#rowOf.get(match.endpoint) as number] as ResourceEndpoint;
    if (trace) trace.type = endpoint.type;
    const url = `${baseUrl}${endpoint.type.endpoint}`;
    return match.handler({ request, tenant, id, baseUrl, config, endpoint, url, dispatcher: this });
  }
}

// Whether a verifier answered with a promise (or any thenable), which must be awaited.
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
