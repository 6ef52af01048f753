import type { ScimEvent } from './events/types.js';
import { ScimConfigError, scimErrors } from '../errors/index.js';
import { EventHub } from './events/event-hub.js';
import { RequestHub } from './events/request-hub.js';
import type { HandlerConfig } from './handlers/context.js';
import type { ResourceEndpoint } from './handlers/resource-endpoint.js';
import { requestOrigin } from './http/request-origin.js';
import { targetPath } from './http/request-target.js';
import { tenantAdmin } from './tenants/tenant-admin.js';
import type { ScimOptions } from './options.js';
import { missingForMail, welcomeOutbox } from './outbox/welcome-outbox.js';
import { requestPhases } from './request-phases.js';
import { resourceServices } from './resources/resource-services.js';
import { responseBudget } from './budget/response-budget.js';
import { builtInResourceTypes, checkResourceTypes, compileUserType } from './resource-types.js';
import { profileSelector } from './profiles.js';
import { routeTable } from './routes.js';
import type { Scim } from './scim.js';
import type { ScimRequest } from './types.js';
import { previewJson } from '../json/preview-json.js';
import { cursorSettings } from './handlers/cursor-settings.js';

const STORE_METHODS = ['create', 'get', 'replace', 'delete', 'list'] as const;
const GROUP_METHODS = [
  'create',
  'get',
  'replace',
  'delete',
  'list',
  'addMembers',
  'removeMembers',
  'members',
  'groupsOf',
] as const;

function checkOptions(options: ScimOptions): void {
  const missing: string[] = [];
  for (const m of STORE_METHODS)
    if (typeof options.store?.[m] !== 'function') missing.push(`store.${m}()`);
  const groups = options.store?.groups;
  if (groups !== undefined) {
    for (const m of GROUP_METHODS)
      if (typeof groups?.[m] !== 'function') missing.push(`store.groups.${m}()`);
  }
  if (typeof options.verifier?.verify !== 'function') missing.push('verifier.verify()');
  missing.push(...missingForMail(options));
  if (missing.length > 0) throw new ScimConfigError(`createScim: missing ${missing.join(', ')}.`);
  const basePath = options.basePath ?? '';
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/'))) {
    throw new ScimConfigError(
      `createScim: basePath "${basePath}" must start with "/" and not end with one.`,
    );
  }
}

/**
 * Creates a SCIM service: one `handle(request)` for every endpoint below the base path, and
 * the host's programmatic API. Everything that can be decided once is decided here.
 *
 * @throws ScimConfigError when a store, verifier or mailer method is missing (the store's
 *   outbox when a mailer is given), `publicBaseUrl` is no absolute http(s) URL, or a resource
 *   type of the host's (`resourceTypes`) is invalid.
 * @example
 * ```ts
 * const scim = createScim({
 *   store: new MemoryUserStore(),
 *   verifier: staticApiKeys([{ key: process.env.SCIM_KEY!, tenant: 'district-42' }]),
 *   mailer: { async sendWelcome(email) { await myMailer.send(email.to, email.idempotencyKey); } },
 *   basePath: '/api/v1/scim/v2',
 * });
 * http.createServer(scimNode(scim)).listen(8080);
 * ```
 */
export function createScim(options: ScimOptions): Scim {
  checkOptions(options);
  const basePath = options.basePath ?? '';
  const originOf = requestOrigin(options.publicBaseUrl);
  const now = options.now ?? (() => new Date());
  const reportError = (error: unknown, request?: ScimRequest) => {
    try {
      options.onError?.(error, request);
    } catch {
      // A failing error reporter must not turn into a failed request.
    }
  };
  // Every profile's dialect switches, resolved once; each distinct set's endpoints are built on
  // first use (the default set just below, at start-up). `servedWith` is defined further down.
  const profiles = profileSelector(
    options,
    (switches, answers) => servedWith(switches, answers),
    (set, trace) => ({ ...set, endpoints: set.make(trace) }),
  );
  // The User resource type with the default profile's dialect switches: the one the host API,
  // the request event and discovery read (a type's schemas do not depend on its switches).
  const resourceType = compileUserType({ ...options, patchRules: profiles.defaultSwitches });
  checkResourceTypes(options);
  const events = new EventHub(reportError);
  if (options.onEvent) events.on(options.onEvent);
  const requests = new RequestHub(
    events,
    resourceType,
    now,
    reportError,
    builtInResourceTypes({ ...options, patchRules: profiles.defaultSwitches }),
  );
  if (options.onRequest) requests.on(options.onRequest);
  const outbox = welcomeOutbox(options, now, reportError);
  const services = resourceServices({
    options,
    events,
    outbox,
    now,
    resourceType,
    reportError,
    defaultSwitches: profiles.defaultSwitches,
  });
  const servedWith = services.servedWith;
  const { endpoints, answers } = profiles.configFor(undefined);
  // Where each served type sits in every set: the route table names the default set's rows.
  const rowOf = new Map(endpoints.map((e, i) => [e, i]));
  const config: HandlerConfig = {
    basePath,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    maxBulkOperations: options.maxBulkOperations ?? 1000,
    maxBulkPayloadBytes: options.maxBulkPayloadBytes ?? 1024 * 1024,
    me: options.me,
    defaultPageSize: options.defaultPageSize ?? 50,
    maxPageSize: options.maxPageSize ?? 100,
    sortSupported: typeof options.store.capabilities?.supportsSort === 'function',
    changePassword: options.onPassword !== undefined,
    cursors: cursorSettings(options, now),
    answers,
    advertisePagination: options.advertiseCursors ?? true,
    endpoints,
    reportError,
    responses: responseBudget(options),
  };
  const matchRoute = routeTable(new Map(endpoints.map((e) => [e.type.endpoint.slice(1), e])), {
    me: options.me !== undefined,
  });
  // Adapters read as far as the larger limit; each handler holds its body to its own.
  const maxBodyBytes = Math.max(config.maxBodyBytes, config.maxBulkPayloadBytes);

  const basePrefix = `${basePath}/`;
  // A server sees one origin, or a few: build its URLs once, not on every request.
  let lastOrigin: string | undefined;
  let lastBaseUrl = '';
  let lastUrls = new Map<ResourceEndpoint, string>();
  const baseUrlOf = (origin: string): string => {
    if (origin !== lastOrigin) {
      lastBaseUrl = `${origin.endsWith('/') ? origin.slice(0, -1) : origin}${basePath}`;
      lastUrls = new Map(endpoints.map((e) => [e, `${lastBaseUrl}${e.type.endpoint}`]));
      lastOrigin = origin;
    }
    return lastBaseUrl;
  };

  const phases = requestPhases({
    verifier: options.verifier,
    rateLimit: options.rateLimit,
    maxBodyBytes,
    route(request, method) {
      // An absolute-form target (`http://host/...`) routes like its path.
      const path = targetPath(request.path);
      if (basePath !== '' && path !== basePath && !path.startsWith(basePrefix))
        throw scimErrors.notFound(`No SCIM endpoint at ${previewJson(request.path)}.`);
      // HEAD is GET without the body, wherever GET is allowed (RFC 9110 §9.3.2). The router
      // reads the path below the base path in place.
      return matchRoute(method === 'HEAD' ? 'GET' : method, path, basePath.length);
    },
    run(match, request, tenant, trace, runOperation) {
      const baseUrl = baseUrlOf(originOf(request) ?? '');
      const { id } = match;
      // The set of the tenant's profile (the default set, as a rule), traced while listened to.
      const set = profiles.configFor(tenant.profile, trace && requests.collect(trace));
      // A handler of no one type (the root search, `/Me`, `/Bulk`) reads with that set too.
      if (match.endpoint === undefined) {
        const own =
          set.endpoints === endpoints
            ? config
            : { ...config, endpoints: set.endpoints, answers: set.answers };
        return match.handler({ request, tenant, id, baseUrl, config: own, runOperation });
      }
      const url = lastUrls.get(match.endpoint) as string;
      // The same row in that set.
      const endpoint = set.endpoints[rowOf.get(match.endpoint) as number] as ResourceEndpoint;
      if (trace) trace.type = endpoint.type;
      return match.handler({ request, tenant, id, baseUrl, config, endpoint, url, runOperation });
    },
    reportError,
    requests,
  });

  return {
    handle: phases.handle,
    begin: phases.begin,
    maxBodyBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
    users: services.users,
    groups: services.groups,
    tenants: tenantAdmin(endpoints, options),
    on: (listener: (event: ScimEvent) => void) => events.on(listener),
    onRequest: (listener) => requests.on(listener),
    dispatchOutbox: () => outbox?.drain() ?? Promise.resolve(0),
    close: () => outbox?.close() ?? Promise.resolve(),
  };
}
