import type { ScimUser } from '../../schema/user-resource.js';

/** The attribute names whose values differ between two versions of a user. */
export type ChangedAttributes = readonly string[];

interface EventBase<T extends string> {
  readonly type: T;
  readonly tenant: string;
  readonly at: string;
}

/** A user was created by the IdP. */
export interface UserCreatedEvent extends EventBase<'user.created'> {
  readonly user: ScimUser;
}
/** A user was changed by PUT or PATCH. */
export interface UserUpdatedEvent extends EventBase<'user.updated'> {
  readonly before: ScimUser;
  readonly after: ScimUser;
  readonly changed: ChangedAttributes;
}
/** `active` went from true to false. */
export interface UserDeactivatedEvent extends EventBase<'user.deactivated'> {
  readonly user: ScimUser;
}
/** `active` went back to true on an account that was active before (not `Pending` → `Invited`). */
export interface UserReactivatedEvent extends EventBase<'user.reactivated'> {
  readonly user: ScimUser;
}
/** The person logged in for the first time (`Invited` → `Activated`). */
export interface UserActivatedEvent extends EventBase<'user.activated'> {
  readonly user: ScimUser;
}
/** A user was deleted. */
export interface UserDeletedEvent extends EventBase<'user.deleted'> {
  readonly id: string;
}

/** Every lifecycle event scimkit emits, for audit logs. */
export type ScimEvent =
  | UserCreatedEvent
  | UserUpdatedEvent
  | UserDeactivatedEvent
  | UserReactivatedEvent
  | UserActivatedEvent
  | UserDeletedEvent;
