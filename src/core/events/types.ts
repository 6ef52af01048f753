import type { ScimResource } from '../../contracts/resource-store.js';
import type { GroupMember, ScimGroup } from '../../schema/group-schema.js';
import type { FiredRule } from '../../schema/dialect-rules.js';
import type { ScimUser } from '../../schema/user-resource.js';

/** The attribute names whose values differ between two versions of a user. */
export type ChangedAttributes = readonly string[];

/** What every lifecycle event carries. */
interface EventBase<T extends string> {
  /** The event's type, which tells the payload. */
  readonly type: T;
  /** The tenant the change happened in. */
  readonly tenant: string;
  /** When it happened (ISO 8601). */
  readonly at: string;
}

/** A user was created by the IdP. */
export interface UserCreatedEvent extends EventBase<'user.created'> {
  /** The user as created. */
  readonly user: ScimUser;
}
/** A user was changed by PUT or PATCH. */
export interface UserUpdatedEvent extends EventBase<'user.updated'> {
  /** The user before the change. */
  readonly before: ScimUser;
  /** The user after the change. */
  readonly after: ScimUser;
  /** The attributes whose values differ between `before` and `after`. */
  readonly changed: ChangedAttributes;
}
/** `active` went from true to false. */
export interface UserDeactivatedEvent extends EventBase<'user.deactivated'> {
  /** The user as deactivated. */
  readonly user: ScimUser;
}
/** `active` went back to true on an account that was active before (not `Pending` → `Invited`). */
export interface UserReactivatedEvent extends EventBase<'user.reactivated'> {
  /** The user as reactivated. */
  readonly user: ScimUser;
}
/** The person logged in for the first time (`Invited` → `Activated`). */
export interface UserActivatedEvent extends EventBase<'user.activated'> {
  /** The user after the person's first login. */
  readonly user: ScimUser;
}
/**
 * A welcome email is due for the user: created active, first made active later, or invited
 * again by the host (`scim.users.resendInvitation`). Emitted only by a service with a mailer,
 * for a user with an email address; the welcome subscriber sends the email from it.
 */
export interface UserInvitedEvent extends EventBase<'user.invited'> {
  /** The user as written. */
  readonly user: ScimUser;
}
/** A user was deleted. */
export interface UserDeletedEvent extends EventBase<'user.deleted'> {
  /** The id of the deleted user. */
  readonly id: string;
}

/** A group was created (its members follow as `group.member_added` events). */
export interface GroupCreatedEvent extends EventBase<'group.created'> {
  /** The group as created, without members. */
  readonly group: ScimGroup;
}
/**
 * An attribute of a group other than its members changed (a rename, say), by PUT or PATCH.
 * `before` and `after` carry no member list: membership changes have events of their own.
 */
export interface GroupUpdatedEvent extends EventBase<'group.updated'> {
  /** The group before the change, without members. */
  readonly before: ScimGroup;
  /** The group after the change, without members. */
  readonly after: ScimGroup;
  /** The attributes whose values differ between `before` and `after`. */
  readonly changed: ChangedAttributes;
}
/** A group was deleted, and every membership it was part of with it. */
export interface GroupDeletedEvent extends EventBase<'group.deleted'> {
  /** The id of the deleted group. */
  readonly id: string;
}
/** A user or group became a member of a group: one event per member the store added. */
export interface GroupMemberAddedEvent extends EventBase<'group.member_added'> {
  /** The id of the group the member joined. */
  readonly groupId: string;
  /** The member that joined. */
  readonly member: GroupMember;
}
/** A user or group left a group: one event per member the store removed. */
export interface GroupMemberRemovedEvent extends EventBase<'group.member_removed'> {
  /** The id of the group the member left. */
  readonly groupId: string;
  /** The member that left. */
  readonly member: GroupMember;
}

/** A resource of a type the host registers (`resourceTypes`) was created. */
export interface ResourceCreatedEvent extends EventBase<'resource.created'> {
  /** The resource type's name, such as `Class`. */
  readonly resourceType: string;
  /** The resource as created. */
  readonly resource: ScimResource;
}
/** A host resource was changed by PUT or PATCH; `changed` names the attributes that differ. */
export interface ResourceUpdatedEvent extends EventBase<'resource.updated'> {
  /** The resource type's name, such as `Class`. */
  readonly resourceType: string;
  /** The resource before the change. */
  readonly before: ScimResource;
  /** The resource after the change. */
  readonly after: ScimResource;
  /** The attributes whose values differ. */
  readonly changed: ChangedAttributes;
}
/** A host resource was deleted. */
export interface ResourceDeletedEvent extends EventBase<'resource.deleted'> {
  /** The resource type's name, such as `Class`. */
  readonly resourceType: string;
  /** The deleted resource's id. */
  readonly id: string;
}

/** Every lifecycle event scimkit emits, for audit logs. */
export type ScimEvent =
  | UserCreatedEvent
  | UserUpdatedEvent
  | UserDeactivatedEvent
  | UserReactivatedEvent
  | UserActivatedEvent
  | UserInvitedEvent
  | UserDeletedEvent
  | GroupCreatedEvent
  | GroupUpdatedEvent
  | GroupDeletedEvent
  | GroupMemberAddedEvent
  | GroupMemberRemovedEvent
  | ResourceCreatedEvent
  | ResourceUpdatedEvent
  | ResourceDeletedEvent;

/**
 * Names the dialect rule (or normalisation) that made a stored value differ from the value a
 * client sent: `stringBooleans` (`"False"` → `false`), `managerString` (a bare id →
 * `{ "value": id }`), `jsonEncodedValues` (a JSON-encoded string → the object), `dateTime`
 * (date-time text rewritten to its normal form), `canonicalName` (an attribute name spelled in
 * another letter case → the schema's spelling), `managerEmptyString` (an empty manager id `""`
 * in a POST or PUT body → no manager stored).
 */
export type NormalisationRule =
  | 'stringBooleans'
  | 'managerString'
  | 'jsonEncodedValues'
  | 'managerEmptyString'
  | 'dateTime'
  | 'canonicalName';

/** One difference between what a client sent and what was stored, and the rule behind it. */
export interface Normalisation {
  /** The rule that changed the value. */
  readonly rule: NormalisationRule;
  /** Where, as an attribute path (`active`, `emails[0].value`, `Operations[1].value`). */
  readonly path: string;
  /** The value (or, for `canonicalName`, the attribute name) as received. */
  readonly received: unknown;
  /** The value (or attribute name) as stored; `undefined` when none was stored. */
  readonly stored: unknown;
}

/**
 * One SCIM request as it was answered, for request logs and audit views (see
 * `ScimOptions.onRequest`). The members that take work to build (`body`, `normalisations`) are
 * computed when first read, so a listener that ignores them pays nothing for them.
 */
export interface RequestCompletedEvent {
  /** The event's type: every request completes with one. */
  readonly type: 'request.completed';
  /** The authenticated tenant; absent when the request was not authenticated (e.g. a 401). */
  readonly tenant: string | undefined;
  /** When the answer was ready (ISO 8601). */
  readonly at: string;
  /** The request method, upper case. */
  readonly method: string;
  /** The request target as received, query included. */
  readonly path: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Milliseconds from the request's head to its answer. */
  readonly latencyMs: number;
  /**
   * The body as received, parsed JSON, with every writeOnly value (such as `password`)
   * replaced by `"[redacted]"`; the raw text when it is not JSON; `undefined` when there was
   * none. Never any header.
   */
  readonly body: unknown;
  /**
   * The size of the body as received, in bytes (0 for none): known without parsing it, so a
   * log can decide what to keep by it. `undefined` when the body reached scimkit already
   * parsed (a host's own body parser).
   */
  readonly bodyBytes: number | undefined;
  /**
   * The SCIM error the request was answered with (status 400 and above): its `scimType`, when
   * it has one, and its `detail`; `undefined` for a success.
   */
  readonly error: { readonly scimType?: string; readonly detail: string } | undefined;
  /** The user before the request changed it (PUT, PATCH); `undefined` otherwise. */
  readonly before: ScimUser | undefined;
  /** The user as the request stored it (POST, PUT, PATCH); `undefined` when none was written. */
  readonly after: ScimUser | undefined;
  /** What the dialect rules changed between `body` and `after` (see `explainNormalisations`). */
  readonly normalisations: readonly Normalisation[];
  /**
   * Every dialect rule that changed how the request was read, in the order each kind was
   * found: `{ rule: 'stringBooleans', where: 'Operations[0].value', received: 'False', became:
   * false }`, `{ rule: 'opAnyCase', where: 'Operations[0].op', received: 'Replace', became:
   * 'replace' }`. Empty when the request was plain RFC 7644, or when its tenant's profile has
   * the rules off. See docs/console.md.
   */
  readonly rulesFired: readonly FiredRule[];
}
