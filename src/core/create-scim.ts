import type { ScimEvent } from './events/types.js';
import { compileService, type ServiceDescription } from './compile/compile-service.js';
import { resolveOptions } from './compile/resolve-options.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import { EventHub } from './events/event-hub.js';
import { eventFeed } from './events/event-feed.js';
import { RequestHub } from './events/request-hub.js';
import type { HandlerConfig } from './handlers/context.js';
import { cursorSettings } from './handlers/cursor-settings.js';
import { requestOrigin } from './http/request-origin.js';
import { tenantAdmin } from './tenants/tenant-admin.js';
import type { ScimOptions } from './options.js';
import { startWelcome } from './mail/welcome-subscriber.js';
import type { ServedSet } from './served-set.js';
import { resourceServices } from './resources/resource-services.js';
import { responseBudget } from './budget/response-budget.js';
import { profileSelector } from './profiles.js';
import type { Scim } from './scim.js';
import type { ScimRequest } from './types.js';
import type { DialectRuleName } from '../schema/dialect-rules.js';

/**
 * Creates a SCIM service: one `handle(request)` for every endpoint below the base path, and
 * the host's programmatic API. The options are resolved and compiled into a service
 * description once (`compileService`); this builds the runtime pieces from it: events, the
 * welcome subscriber, the resource services, the handlers' settings and the dispatcher.
 *
 * @throws ScimConfigError when a store, verifier or mailer method is missing (the store's
 *   event log and subscription state when a mailer is given), a `mail.delivery` option cannot
 *   work, a setting is given in its group and under its deprecated
 *   flat name with different values, `publicBaseUrl` is no absolute http(s) URL, or a resource
 *   type of the host's (`resourceTypes`) is invalid.
 * @example
 * ```ts
 * const scim = createScim({
 *   store: new MemoryUserStore(),
 *   auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY!, tenant: 'district-42' }]) },
 *   mail: { mailer: { async sendWelcome(email) { await myMailer.send(email.to, email.idempotencyKey); } } },
 *   basePath: '/api/v1/scim/v2',
 * });
 * http.createServer(scimNode(scim)).listen(8080);
 * ```
 */
export function createScim(options: ScimOptions): Scim {
  const service = compileService(resolveOptions(options));
  const { store, basePath, limits, hooks, profiles: resolved } = service;
  const now = hooks.now;
  const reportError = errorReporter(hooks.onError);
  const originOf = requestOrigin(service.publicBaseUrl);
  const defaultSwitches = resolved.byName.get(resolved.defaultProfile) as Switches;
  const resourceType = service.types[0] as ServiceDescription['types'][number];
  const { events, requests } = eventHubs(service, reportError);
  const feed = eventFeed(
    store.events,
    service.events.retentionDays,
    now,
    reportError,
    store.subscriptions,
  );
  events.onCommit((types) => feed.kick(types));
  const { mailer, delivery } = service.mail;
  const mail = startWelcome(feed, store, mailer, delivery, resourceType);
  const services = resourceServices({
    service,
    events,
    invites: mail !== undefined,
    now,
    resourceType,
    reportError,
    defaultSwitches,
  });
  const servedWith = services.servedWith;
  const profiles = profileSelector(resolved, servedWith, (set, trace) => ({
    ...set,
    endpoints: set.make(trace),
  }));
  const config = handlerConfig(service, profiles.configFor(undefined), reportError);
  const dispatcher = new Dispatcher({
    basePath,
    maxBodyBytes: limits.readBodyBytes,
    verifier: service.auth.verifier,
    rateLimit: service.auth.rateLimit,
    originOf,
    profiles,
    config,
    requests,
    reportError,
  });
  return {
    handle: (request) => dispatcher.handle(request),
    begin: (head, context) => dispatcher.begin(head, context),
    maxBodyBytes: limits.readBodyBytes,
    bodyTimeoutMs: limits.bodyTimeoutMs,
    users: services.users,
    groups: services.groups,
    tenants: tenantAdmin(config.endpoints, { ...service, verifier: service.auth.verifier }),
    events: feed.feed,
    on: (listener: (event: ScimEvent) => void) => events.on(listener),
    onRequest: (listener) => requests.on(listener),
    mail,
    close: () => feed.close(),
  };
}

type Switches = Partial<Record<DialectRuleName, boolean>>;

// The lifecycle events and the request log, with the host's listeners.
function eventHubs(
  service: ServiceDescription,
  reportError: (error: unknown) => void,
): { events: EventHub; requests: RequestHub } {
  const { hooks, types } = service;
  const events = new EventHub(reportError);
  if (hooks.onEvent) events.on(hooks.onEvent);
  const user = types[0] as ServiceDescription['types'][number];
  const requests = new RequestHub(events, user, hooks.now, reportError, types);
  if (hooks.onRequest) requests.on(hooks.onRequest);
  return { events, requests };
}

// The settings every handler reads, with the default profile's endpoints.
function handlerConfig(
  service: ServiceDescription,
  { endpoints, answers }: ServedSet,
  reportError: (error: unknown) => void,
): HandlerConfig {
  const { limits, paging, hooks } = service;
  return {
    basePath: service.basePath,
    maxBodyBytes: limits.maxBodyBytes,
    maxBulkOperations: limits.maxBulkOperations,
    maxBulkPayloadBytes: limits.maxBulkPayloadBytes,
    bulkConcurrency: limits.bulkConcurrency,
    me: service.me,
    defaultPageSize: paging.defaultPageSize,
    maxPageSize: paging.maxPageSize,
    sortSupported: service.served[0]?.capabilities.sort === true,
    changePassword: hooks.onPassword !== undefined,
    cursors: cursorSettings(paging, hooks.now),
    answers,
    advertisePagination: paging.advertiseCursors,
    endpoints,
    reportError,
    responses: responseBudget(limits),
  };
}

// Sends a fault to the host's `onError`; a failing error reporter must not turn into a failed
// request.
function errorReporter(
  onError: ((error: unknown, request?: ScimRequest) => void) | undefined,
): (error: unknown, request?: ScimRequest) => void {
  return (error, request) => {
    try {
      onError?.(error, request);
    } catch {
      // Nothing to do: the reporter itself failed.
    }
  };
}
