import type { ScimEvent } from './events/types.js';
import { ScimConfigError } from '../errors/index.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import { DEFAULT_MAX_ATTRIBUTE_VALUES } from '../schema/check-value-counts.js';
import { userNameCheck } from '../schema/user-name-rule.js';
import { EventHub } from './events/event-hub.js';
import { RequestHub } from './events/request-hub.js';
import type { HandlerConfig } from './handlers/context.js';
import { requestOrigin } from './http/request-origin.js';
import { tenantAdmin } from './tenants/tenant-admin.js';
import type { ScimOptions } from './options.js';
import { missingForMail, welcomeOutbox } from './outbox/welcome-outbox.js';
import { servedSets } from './served-set.js';
import { groupAccess } from './groups/group-access.js';
import { GroupService } from './groups/group-service.js';
import { responseBudget } from './budget/response-budget.js';
import { compileHostType } from './host-types/compile-host-type.js';
import { HostResourceService } from './host-types/host-resource-service.js';
import {
  builtInResourceTypes,
  checkResourceTypes,
  compileGroupType,
  compileUserType,
} from './resource-types.js';
import { profileSelector } from './profiles.js';
import type { Scim } from './scim.js';
import type { ScimRequest } from './types.js';
import { UserService } from './users/user-service.js';
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
  const users = new UserService(options.store, events, outbox, now, resourceType, {
    maxAttributeValues: options.maxAttributeValues ?? DEFAULT_MAX_ATTRIBUTE_VALUES,
    checkUserName: userNameCheck(options.userNameRule ?? 'rfc'),
    reportError,
  });
  // One group service for every profile, so one lock per group serves them all; a PATCH
  // brings its own context (see `serviceInContext`).
  const groupService = options.store.groups
    ? new GroupService(
        options.store.groups,
        events,
        now,
        compileGroupType({ ...options, patchRules: profiles.defaultSwitches }),
      )
    : undefined;
  // The same for each resource type of the host's.
  const hostServices = (options.resourceTypes ?? []).map(
    (host) =>
      new HostResourceService(host, {
        type: compileHostType(host, profiles.defaultSwitches),
        events,
        clock: now,
        maxAttributeValues: options.maxAttributeValues ?? DEFAULT_MAX_ATTRIBUTE_VALUES,
      }),
  );
  const servedWith = servedSets({ options, users, groupService, hostServices, reportError });
  const { endpoints, answers } = profiles.configFor(undefined);
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
  // Adapters read as far as the larger limit; each handler holds its body to its own.
  const maxBodyBytes = Math.max(config.maxBodyBytes, config.maxBulkPayloadBytes);

  const dispatcher = new Dispatcher({
    basePath,
    maxBodyBytes,
    verifier: options.verifier,
    rateLimit: options.rateLimit,
    originOf,
    profiles,
    config,
    requests,
    reportError,
  });

  return {
    handle: (request) => dispatcher.handle(request),
    begin: (head, context) => dispatcher.begin(head, context),
    maxBodyBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
    users: {
      activate: (tenant, id) => users.activate(tenant, id),
      resendInvitation: (tenant, id) => users.resendInvitation(tenant, id),
      get: (tenant, id) => options.store.get(tenant, id),
      groups: (tenant, id) => users.groupsOf(tenant, id),
    },
    groups: groupService && options.store.groups && groupAccess(groupService, options.store.groups),
    tenants: tenantAdmin(endpoints, options),
    on: (listener: (event: ScimEvent) => void) => events.on(listener),
    onRequest: (listener) => requests.on(listener),
    dispatchOutbox: () => outbox?.drain() ?? Promise.resolve(0),
    close: () => outbox?.close() ?? Promise.resolve(),
  };
}
