import type { ApiKeyVerifier, Tenant } from '../contracts/api-key-verifier.js';
import type { Mailer } from '../contracts/mailer.js';
import type { UserStore } from '../contracts/user-store.js';
import type { DialectRuleName } from '../schema/dialect-rules.js';
import type { SchemaDefinition } from '../schema/types.js';
import type { UserNameRule } from '../schema/user-name-rule.js';
import type { RequestCompletedEvent, ScimEvent } from './events/types.js';
import type { HostResourceType } from './host-types/host-resource-type.js';
import type { ProfileDefinition } from './profiles.js';
import type { SubscribeOptions } from './subscriptions/types.js';
import type { ScimRequest, ScimRequestHead } from './types.js';

/**
 * How the welcome email is delivered: the options of the durable subscriber that sends it
 * (see {@link SubscribeOptions}), with defaults for a mailer: `timeoutMs` 30,000 ms,
 * `maxAttempts` 8, `backoff` from 1,000 ms up to 5 minutes, `pollIntervalMs` 0 (a write
 * wakes the subscriber of its own process, a failure its retry timer, a start its first
 * round); `leaseMs` 60,000 ms, `batchSize` 100 and `concurrency` 4 as for any subscriber.
 * Without a crash (or a stall of the process longer than `leaseMs`) each email is sent once,
 * whatever the number of instances; across a crash between send and record it may be sent
 * again, with the same idempotency key.
 */
export type MailDeliveryOptions = Omit<SubscribeOptions, 'types' | 'startAfter'>;

/**
 * The delivery settings of the welcome email under their former names.
 *
 * @deprecated Use {@link MailDeliveryOptions} (`mail.delivery`): `sendTimeoutMs` is
 * `timeoutMs`, `retryBaseMs` and `retryMaxMs` are `backoff.initialMs` and `backoff.maxMs`;
 * `maxAttempts`, `leaseMs` and `pollIntervalMs` keep their names. Kept for one release.
 */
export interface OutboxOptions {
  /** Attempts before the email is given up as a dead letter. */
  readonly maxAttempts?: number;
  /** Delay before the first retry (`backoff.initialMs`). */
  readonly retryBaseMs?: number;
  /** Longest delay between retries (`backoff.maxMs`). */
  readonly retryMaxMs?: number;
  /** How long a claim keeps other processes out (`leaseMs`). */
  readonly leaseMs?: number;
  /** Longest wait for one `sendWelcome` (`timeoutMs`). */
  readonly sendTimeoutMs?: number;
  /** Also look for due emails every this many ms (`pollIntervalMs`). */
  readonly pollIntervalMs?: number;
}

/**
 * Says whether a request may go on: `true` lets it through; `false` refuses it with 429, and
 * `{ retryAfterSeconds }` refuses it with 429 and a `Retry-After` header (rounded up).
 */
export type RateLimitVerdict =
  | boolean
  | {
      /** Seconds the client should wait, sent as `Retry-After` (rounded up). */
      readonly retryAfterSeconds: number;
    };

/**
 * Decides whether an authenticated request may go on, before its body is read (see
 * {@link AuthOptions.rateLimit}).
 */
export type RateLimit = (
  tenant: Tenant,
  request: ScimRequestHead,
) => RateLimitVerdict | Promise<RateLimitVerdict>;

/**
 * Maps the authenticated caller of a `/Me` request to the id of the user `/Me` stands for, or
 * `null` when the caller is no user of the tenant (`/Me` answers 404). A throw (or a rejection)
 * is a SCIM 500 reported to `onError`.
 *
 * @see RFC 7644 §3.11
 * @example
 * ```ts
 * me: (tenant, request) => (request.context as Session | undefined)?.userId ?? null,
 * ```
 */
export type MeHook = (
  tenant: Tenant,
  request: ScimRequest,
) => string | null | Promise<string | null>;

/** Who may call the service, and how often: the verifier of API keys and the rate limit. */
export interface AuthOptions {
  /** Turns bearer tokens into tenants. Required, here or (deprecated) at the top level. */
  readonly verifier?: ApiKeyVerifier;
  /**
   * Consulted for every authenticated request, after the `context` hook and before routing and
   * the body: return `true` to let it through, `false` or `{ retryAfterSeconds }` to answer 429.
   * A throw (or a rejection) is a SCIM 500 reported to `hooks.onError`. Default: no limit.
   *
   * A `/Bulk` request is consulted about once as a request, then once per operation, just before
   * it runs, with the operation's method and path: 1,000 operations cost 1,001 calls. A refused
   * operation is not run and answers 429 inside the BulkResponse (counted by `failOnErrors`);
   * the refused request runs nothing (docs/bulk.md).
   *
   * @example
   * ```ts
   * rateLimit: (tenant) => buckets.take(tenant.id) || { retryAfterSeconds: 1 },
   * ```
   */
  readonly rateLimit?: RateLimit;
}

/** The welcome email: the mailer and how the welcome subscriber delivers to it. */
export interface MailOptions {
  /**
   * Sends welcome emails, from the `user.invited` events of the store's event log, through a
   * durable subscriber (`scimkit.welcome`; the store must then keep `events` and
   * `subscriptions`). Omitted: no `user.invited` event is recorded and no email sent, account
   * statuses move as they would with one, and `users.resendInvitation` answers `false`.
   */
  readonly mailer?: Mailer;
  /** How the welcome subscriber delivers: timeouts, retries, leases, polling. */
  readonly delivery?: MailDeliveryOptions;
  /** @deprecated Use `mail.delivery` (see {@link OutboxOptions}); kept for one release. */
  readonly outbox?: OutboxOptions;
}

/** The directory event log the store keeps (`scim.events`). See docs/events.md. */
export interface EventOptions {
  /**
   * How many days events are kept: older ones are purged in bounded batches, from a timer of
   * the service's (stopped by `scim.close()`). Default 30; `Infinity` keeps every event.
   */
  readonly retentionDays?: number;
}

/** What one request may cost: body, Bulk, response and PATCH limits. See docs/limits.md. */
export interface LimitOptions {
  /** Largest accepted request body in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Longest time, in ms, an adapter waits for a whole request body once it starts reading; a
   * slower body is answered 408 and its connection closed. Default 10,000.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Most operations one `/Bulk` request may carry; more answer 413. Advertised as
   * `bulk.maxOperations` in `/ServiceProviderConfig`. Default 1,000.
   */
  readonly maxBulkOperations?: number;
  /**
   * Largest `/Bulk` request body in bytes; a larger one answers 413. Advertised as
   * `bulk.maxPayloadSize` in `/ServiceProviderConfig`. Adapters read up to the larger of this
   * and `maxBodyBytes` (`scim.maxBodyBytes`). Default 1 MiB.
   */
  readonly maxBulkPayloadBytes?: number;
  /**
   * How many POSTs of one `/Bulk` request may run at once: consecutive POSTs that refer to no
   * bulkId and share no unique key (a User's `userName`, say) run together, so an initial load
   * is not paced by one store round trip and commit at a time. The answer is the one of running
   * them in turn. Keep it below your store's connection pool size, or one bulk request takes
   * every connection; 1 runs every operation alone. Default 8. See docs/bulk.md.
   */
  readonly bulkConcurrency?: number;
  /**
   * Largest answer, in bytes of its JSON text (UTF-8): no list, search, cursor page, `/Bulk`
   * or single-resource answer is built beyond it. A page that would be larger holds fewer
   * resources (`itemsPerPage` says how many; the client pages on, RFC 7644 §3.4.2.4); a single
   * resource that does not fit on its own (a group of many members, say) answers 400 `tooMany`
   * naming `excludedAttributes=members`; a write whose answer does not fit answers without a
   * body. A group's members are read page by page and never beyond it. See docs/limits.md.
   * Default 16 MiB.
   */
  readonly maxResponseBytes?: number;
  /**
   * The bytes every answer being built at the same moment may hold together (read group
   * members and response text), so that concurrent large answers cannot exhaust the heap. An
   * answer that finds too little room holds fewer resources, or, when not even one fits,
   * answers 503 with `Retry-After`. Room is given back when the answer is handed to the
   * adapter; the adapter then holds the text until the client has read it, as many at once as
   * the server's connection limits allow. Default 4 × `maxResponseBytes`.
   */
  readonly maxResponseBytesInFlight?: number;
  /** Largest number of operations in one PATCH; more answer 400 `tooMany`. Default 1,000. */
  readonly maxPatchOperations?: number;
  /**
   * Work budget of one PATCH, in work units (`WORK_COSTS` in `scimkit/filter`): 16 per value of
   * a multi-valued attribute copied, looked up or tested and per value-filter term tested, 256
   * per value written, and 1 per character compared (20 per non-ASCII character folded for a
   * caseIgnore comparison). A PATCH that needs more answers 400 `invalidValue` naming the limit
   * and changes nothing, and is stopped where the budget runs out, so no request holds the
   * process for long. Value filters with an `eq` (`roles[value eq "x"]`) are answered from an
   * index and cost a few visits each. Default 20,000,000, about 0.1 s of work.
   */
  readonly maxPatchWork?: number;
  /**
   * Most values one multi-valued attribute (`roles`, `emails`, …) may hold after a POST, PUT or
   * PATCH; more answer 400 `invalidValue`. An attribute stored with more may shrink but not
   * grow. Default 10,000.
   */
  readonly maxAttributeValues?: number;
}

/** How lists are paged: page sizes and RFC 9865 cursors. See docs/paging.md. */
export interface PagingOptions {
  /** Page size when `count` is not given. Default 50. */
  readonly defaultPageSize?: number;
  /**
   * Largest page size; a larger `count` is lowered to it (index paging) or answered 400
   * `invalidCount` (cursor paging, as RFC 9865 says). Default 100.
   */
  readonly maxPageSize?: number;
  /**
   * The key RFC 9865 cursors are signed with (at least 32 characters). Instances behind one
   * load balancer need the same key, or a cursor one gave is refused (`invalidCursor`) by the
   * others. Default: a random key per `createScim`, so cursors end with the process.
   */
  readonly cursorSecret?: string;
  /**
   * How long an RFC 9865 cursor stays valid, in seconds; an older one answers 400
   * `expiredCursor`. 0: cursors never expire. Default 3,600. Advertised as `cursorTimeout`.
   */
  readonly cursorTimeoutSeconds?: number;
  /**
   * Whether `/ServiceProviderConfig` carries the RFC 9865 `pagination` block. `false` leaves it
   * out for strict clients that refuse attributes RFC 7643 §5 does not define (python-scim's
   * `scim2-models`); cursor paging is still answered when a client asks for it. Default `true`.
   */
  readonly advertiseCursors?: boolean;
}

/** How requests of real identity providers are read: dialect rules and compatibility profiles. See docs/patch.md. */
export interface DialectOptions {
  /**
   * Switches PATCH dialect rules (normalisations of what real IdPs send) on or off; all are on
   * by default. See docs/patch.md for each rule and the IdP that needs it.
   */
  readonly patchRules?: Partial<Record<DialectRuleName, boolean>>;
  /**
   * The host's own compatibility profiles, by name: the dialect rules each switches on or off
   * over the profile it extends (default `strict`). A tenant's profile (`Tenant.profile`, from
   * the verifier) picks the rules its requests are read with; `patchRules` switched off stay
   * off in every profile. Built in: `lenient`, `strict`, `entra`, `okta` (docs/patch.md).
   */
  readonly profiles?: Readonly<Record<string, ProfileDefinition>>;
  /**
   * The profile of a tenant whose verifier gives none. Default `lenient`: every dialect rule on,
   * as before profiles existed.
   */
  readonly defaultProfile?: string;
}

/** What the built-in resource types hold beyond the RFC: extensions and the userName rule. */
export interface SchemaOptions {
  /**
   * Extra schema extensions of the User, such as a district's `studentNumber`: validated,
   * stored, filterable, patchable, projected and advertised at `/Schemas` like the built-in
   * ones. Each must have a unique `urn:` id.
   */
  readonly extensions?: readonly SchemaDefinition[];
  /**
   * Extra schema extensions of the Group, such as a district's `schoolCode`: checked
   * as `extensions` are, then validated, stored, filterable, patchable, projected and
   * advertised (`/ResourceTypes/Group`, `/Schemas`) like the User's. Each must have a `urn:` id
   * no other schema served uses. Served when the store keeps groups.
   */
  readonly groupExtensions?: readonly SchemaDefinition[];
  /**
   * Which userNames POST, PUT and PATCH accept: `'rfc'` (any non-empty string, RFC 7643
   * §4.1.1), `'email'` (an email address of at most 254 characters) or a function that returns
   * why it refuses a userName (`undefined` accepts it). Every rule refuses control characters
   * and userNames over 512 characters; uniqueness is per tenant regardless of case. Default
   * `'rfc'`. See docs/users.md.
   */
  readonly userNameRule?: UserNameRule;
}

/** Host functions the service calls: the password, events, request log, faults and the clock. */
export interface HookOptions {
  /**
   * Receives the writeOnly `password` a client sends (POST, PUT or PATCH), after the user was
   * written. scimkit never stores or returns it. Without this hook a password is dropped.
   */
  readonly onPassword?: (tenant: string, userId: string, password: string) => void | Promise<void>;
  /** Receives every lifecycle event, for audit logs. */
  readonly onEvent?: (event: ScimEvent) => void;
  /**
   * Receives every SCIM request as answered (`request.completed`): tenant, method, path, status,
   * latency, the body with writeOnly values redacted, the user before and after, the
   * normalisations the dialect rules applied and every dialect rule that fired
   * (`rulesFired`). See docs/console.md. Default: none, at no cost.
   */
  readonly onRequest?: (event: RequestCompletedEvent) => void;
  /** Receives unexpected faults (answered as 500s) and mailer failures. */
  readonly onError?: (error: unknown, request?: ScimRequest) => void;
  /** The clock; tests may pass a fixed one. Default `() => new Date()`. */
  readonly now?: () => Date;
}

/**
 * Options of {@link createScim} other than the verifier's place (see {@link ScimOptions}): the
 * store, where the service is mounted, and the groups of settings.
 */
export interface ScimOptionsBase {
  /** Where users are kept. */
  readonly store: UserStore;
  /** The mount point, e.g. `/api/v1/scim/v2`; removed from request paths. Default `''`. */
  readonly basePath?: string;
  /**
   * The public URL of the service, `scheme://host[:port]` with an optional path prefix a proxy
   * adds (`https://scim.example.org/gateway`); `basePath` follows it. Every `Location`,
   * `meta.location`, `$ref` and Bulk `location` is built from it, whatever `Host`,
   * `X-Forwarded-Host` or absolute-form target a client sends. Set it on every public server:
   * without it the URLs come from the request (`baseUrl`, which adapters take from the `Host`
   * header), so a client that spoofs `Host` gets its own host written into the answers. An
   * absolute `http:` or `https:` URL with no credentials, query or fragment, else a
   * ScimConfigError.
   */
  readonly publicBaseUrl?: string;
  /**
   * The host's own resource types (a district's `Class` at `/Classes`, say), each with its
   * schemas and store, served after the User and the Group with the same machinery:
   * validation, filters, sort, PATCH, projection, ETags, Bulk, search at the root and
   * discovery. A name or endpoint that clashes with another type's or an RFC 7644 endpoint's,
   * or a schema id that is no unique `urn:`, is a ScimConfigError. See docs/resource-types.md.
   *
   * @example
   * ```ts
   * resourceTypes: [{ name: 'Class', endpoint: '/Classes', schema: classSchema, store: new MemoryResourceStore() }],
   * ```
   */
  readonly resourceTypes?: readonly HostResourceType[];
  /**
   * Serves `/Me` (RFC 7644 §3.11): maps the caller to the user GET, PUT, PATCH and DELETE on
   * `/Me` act on. Without it `/Me` answers 501. See docs/users.md.
   */
  readonly me?: MeHook;
  /** Who may call the service, and how often: the verifier of API keys and the rate limit. */
  readonly auth?: AuthOptions;
  /** The welcome email: the mailer and how the welcome subscriber delivers to it. */
  readonly mail?: MailOptions;
  /** The directory event log: how long events are kept. See docs/events.md. */
  readonly events?: EventOptions;
  /** What one request may cost: body, Bulk, response and PATCH limits. See docs/limits.md. */
  readonly limits?: LimitOptions;
  /** How lists are paged: page sizes and RFC 9865 cursors. See docs/paging.md. */
  readonly paging?: PagingOptions;
  /** How requests of real identity providers are read: dialect rules and compatibility profiles. See docs/patch.md. */
  readonly dialects?: DialectOptions;
  /** What the built-in resource types hold beyond the RFC: extensions and the userName rule. */
  readonly schema?: SchemaOptions;
  /** Host functions the service calls: the password, events, request log, faults and the clock. */
  readonly hooks?: HookOptions;
  /** @deprecated Use `mail.mailer`; this name is kept for one release. */
  readonly mailer?: Mailer;
  /** @deprecated Use `limits.maxBodyBytes`; this name is kept for one release. */
  readonly maxBodyBytes?: number;
  /** @deprecated Use `limits.bodyTimeoutMs`; this name is kept for one release. */
  readonly bodyTimeoutMs?: number;
  /** @deprecated Use `auth.rateLimit`; this name is kept for one release. */
  readonly rateLimit?: RateLimit;
  /** @deprecated Use `limits.maxBulkOperations`; this name is kept for one release. */
  readonly maxBulkOperations?: number;
  /** @deprecated Use `limits.maxBulkPayloadBytes`; this name is kept for one release. */
  readonly maxBulkPayloadBytes?: number;
  /** @deprecated Use `limits.maxResponseBytes`; this name is kept for one release. */
  readonly maxResponseBytes?: number;
  /** @deprecated Use `limits.maxResponseBytesInFlight`; this name is kept for one release. */
  readonly maxResponseBytesInFlight?: number;
  /** @deprecated Use `paging.defaultPageSize`; this name is kept for one release. */
  readonly defaultPageSize?: number;
  /** @deprecated Use `paging.maxPageSize`; this name is kept for one release. */
  readonly maxPageSize?: number;
  /** @deprecated Use `paging.cursorSecret`; this name is kept for one release. */
  readonly cursorSecret?: string;
  /** @deprecated Use `paging.cursorTimeoutSeconds`; this name is kept for one release. */
  readonly cursorTimeoutSeconds?: number;
  /** @deprecated Use `paging.advertiseCursors`; this name is kept for one release. */
  readonly advertiseCursors?: boolean;
  /** @deprecated Use `schema.extensions`; this name is kept for one release. */
  readonly extensions?: readonly SchemaDefinition[];
  /** @deprecated Use `schema.groupExtensions`; this name is kept for one release. */
  readonly groupExtensions?: readonly SchemaDefinition[];
  /** @deprecated Use `hooks.onPassword`; this name is kept for one release. */
  readonly onPassword?: (tenant: string, userId: string, password: string) => void | Promise<void>;
  /** @deprecated Use `dialects.patchRules`; this name is kept for one release. */
  readonly patchRules?: Partial<Record<DialectRuleName, boolean>>;
  /** @deprecated Use `dialects.profiles`; this name is kept for one release. */
  readonly profiles?: Readonly<Record<string, ProfileDefinition>>;
  /** @deprecated Use `dialects.defaultProfile`; this name is kept for one release. */
  readonly defaultProfile?: string;
  /** @deprecated Use `limits.maxPatchOperations`; this name is kept for one release. */
  readonly maxPatchOperations?: number;
  /** @deprecated Use `limits.maxPatchWork`; this name is kept for one release. */
  readonly maxPatchWork?: number;
  /** @deprecated Use `limits.maxAttributeValues`; this name is kept for one release. */
  readonly maxAttributeValues?: number;
  /** @deprecated Use `schema.userNameRule`; this name is kept for one release. */
  readonly userNameRule?: UserNameRule;
  /** @deprecated Use `mail.delivery` (see {@link OutboxOptions}); kept for one release. */
  readonly outbox?: OutboxOptions;
  /** @deprecated Use `hooks.onEvent`; this name is kept for one release. */
  readonly onEvent?: (event: ScimEvent) => void;
  /** @deprecated Use `hooks.onRequest`; this name is kept for one release. */
  readonly onRequest?: (event: RequestCompletedEvent) => void;
  /** @deprecated Use `hooks.onError`; this name is kept for one release. */
  readonly onError?: (error: unknown, request?: ScimRequest) => void;
  /** @deprecated Use `hooks.now`; this name is kept for one release. */
  readonly now?: () => Date;
}

/**
 * Options of {@link createScim}: the store and the verifier are required, everything else has a
 * default. Settings come in groups (`auth`, `mail`, `limits`, `paging`, `dialects`, `schema`,
 * `hooks`); the flat names of earlier versions (`verifier`, `mailer`, `maxBodyBytes`, ...) are
 * deprecated aliases kept for one release, and giving both spellings different values is a
 * ScimConfigError.
 *
 * @example
 * ```ts
 * const scim = createScim({
 *   store: new MemoryUserStore(),
 *   auth: { verifier: staticApiKeys([{ key: 's3cret', tenant: 'district-42' }]) },
 *   mail: { mailer: { async sendWelcome(email) { console.log('welcome', email.to); } } },
 *   basePath: '/api/v1/scim/v2',
 *   limits: { maxBodyBytes: 512 * 1024 },
 * });
 * ```
 */
export type ScimOptions = ScimOptionsBase &
  (
    | {
        readonly auth: AuthOptions & { readonly verifier: ApiKeyVerifier };
        /** @deprecated Use `auth.verifier`; this name is kept for one release. */
        readonly verifier?: ApiKeyVerifier;
      }
    | {
        /** @deprecated Use `auth.verifier`; this name is kept for one release. */
        readonly verifier: ApiKeyVerifier;
      }
  );
