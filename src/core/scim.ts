import type { MemberGroup, MemberInput } from '../contracts/group-store.js';
import type { GroupMember, ScimGroup } from '../schema/group-schema.js';
import type { ScimUser } from '../schema/user-resource.js';
import type { EventFeed } from './events/event-feed.js';
import type { Subscription } from './subscriptions/types.js';
import type { RequestCompletedEvent, ScimEvent } from './events/types.js';
import type { TenantAdmin } from './tenants/tenant-admin.js';
import type { ScimAdmission, ScimRequest, ScimRequestHead, ScimResponse } from './types.js';

/** The programmatic API the host application calls, outside of SCIM requests. */
export interface UserLifecycle {
  /**
   * Records the person's first login: an `Invited` user becomes `Activated`. Returns the user,
   * or `null` when there is no such user in the tenant. Calling it again changes nothing.
   */
  activate(tenant: string, id: string): Promise<ScimUser | null>;
  /**
   * Sends the welcome email again, through a new `user.invited` event (a new idempotency key),
   * for a user who is `Invited` and has an email address (the userName, else the primary or
   * first of `emails`); returns false otherwise, and always on a service without a mailer.
   */
  resendInvitation(tenant: string, id: string): Promise<boolean>;
  /** Reads a user, or `null`. */
  get(tenant: string, id: string): Promise<ScimUser | null>;
  /**
   * Lists the groups a user is in, directly or through nested groups (`type` says which), in
   * ascending id order; `null` when there is no such user in the tenant, and an empty list when
   * the store keeps no groups.
   */
  groups(tenant: string, id: string): Promise<readonly MemberGroup[] | null>;
}

/**
 * The host's view of groups (when the store keeps them): reads, and the membership writes a
 * host needs, through the same service, integrity rules and events as SCIM requests.
 */
export interface GroupAccess {
  /** Reads a group without its members, or `null`. */
  get(tenant: string, id: string): Promise<ScimGroup | null>;
  /**
   * Walks a group's members in id order, a page at a time (never the whole list in memory);
   * yields nothing for a group that is not there.
   */
  members(tenant: string, id: string, pageSize?: number): AsyncIterable<GroupMember>;
  /** Lists the groups a user or group is in, direct and through nested groups. */
  of(tenant: string, memberId: string): Promise<readonly MemberGroup[]>;
  /**
   * Adds members; resolves to those that were not members yet. Throws a ScimError 404 for no
   * group, 400 `invalidValue` for an id that is no user or group of the tenant.
   */
  addMembers(
    tenant: string,
    id: string,
    members: readonly MemberInput[],
  ): Promise<readonly GroupMember[]>;
  /** Removes members by id; resolves to those that were members. Throws a ScimError 404 for no group. */
  removeMembers(
    tenant: string,
    id: string,
    memberIds: readonly string[],
  ): Promise<readonly GroupMember[]>;
}

/**
 * A SCIM service: one request handler and the host's programmatic API.
 *
 * @example
 * ```ts
 * const response = await scim.handle({ method: 'GET', path: '/Users', headers, baseUrl });
 * ```
 */
export interface Scim {
  /**
   * Answers one SCIM request whose body is already at hand. Never rejects: every failure
   * becomes a SCIM error response. Runs the same two phases as {@link Scim.begin}.
   */
  handle(request: ScimRequest): Promise<ScimResponse>;
  /**
   * Decides on a request from its head alone, before any body is read: authentication (401),
   * the host's `context` and `rateLimit` hooks (500, 429), the route (404, 405) and the
   * declared body (`Content-Type` 415, `Content-Length` 413). Returns the answer, or the body
   * phase to call with the body once read. An answer that leaves a declared body unread carries
   * `connection: close`: the adapter sends it and stops reading. Never rejects.
   *
   * @param head - the request without its body.
   * @param context - builds `ScimRequest.context`, called after authentication; a throw is a
   *   SCIM 500 reported to `onError`. Without it, `head.context` is kept.
   * @example
   * ```ts
   * const admitted = await scim.begin(head);
   * const response =
   *   typeof admitted === 'function' ? await admitted(await readBody(), 'complete') : admitted;
   * ```
   */
  begin(head: ScimRequestHead, context?: () => unknown): Promise<ScimAdmission>;
  /** The largest request body accepted, in bytes; adapters read no further than this. */
  readonly maxBodyBytes: number;
  /** How long, in ms, an adapter waits for a whole request body before the core answers 408. */
  readonly bodyTimeoutMs: number;
  /** The account lifecycle API for the host application. */
  readonly users: UserLifecycle;
  /** The group API for the host application; `undefined` when the store keeps no groups. */
  readonly groups?: GroupAccess | undefined;
  /** Offboarding: deletes or exports everything of one tenant (see docs/tenants.md). */
  readonly tenants: TenantAdmin;
  /**
   * The directory event feed: every committed write's events, recorded by the store in the
   * same atomic step as the write, read in commit order with a cursor (see docs/events.md).
   * Its `list` refuses when the store keeps no log.
   */
  readonly events: EventFeed;
  /**
   * Subscribes to lifecycle events in process, after each commit: best-effort (a crash between
   * the commit and the listener loses the notification; the durable record is
   * {@link Scim.events}). Returns the function that unsubscribes.
   */
  on(listener: (event: ScimEvent) => void): () => void;
  /**
   * Subscribes to `request.completed`: every SCIM request as answered, for request logs and
   * audit views; returns the function that unsubscribes. Costs nothing while nobody listens.
   */
  onRequest(listener: (event: RequestCompletedEvent) => void): () => void;
  /**
   * The welcome subscriber (`scimkit.welcome`), which sends the welcome email of every
   * `user.invited` event; `undefined` without a mailer. `drain()` sends every email due now;
   * `attempts` and `deadLetters` show how sending went, `retry` sends given-up emails again.
   * See docs/lifecycle.md, "The welcome email".
   *
   * @example
   * ```ts
   * await scim.mail?.drain();
   * const given = await scim.mail?.deadLetters({ tenant: 'district-42' });
   * ```
   */
  readonly mail: Subscription | undefined;
  /**
   * Stops the durable subscribers of this process (the welcome subscriber among them): waits
   * for the deliveries in flight (at most their `timeoutMs`) and hands every claimed tenant
   * back; stops the event log's purge timer.
   */
  close(): Promise<void>;
}
