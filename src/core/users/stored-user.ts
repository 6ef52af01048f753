import type { AccountExtension, ScimUser } from '../../schema/user-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { FIRST_VERSION, nextVersion } from '../../schema/version.js';
import { setMember } from '../../json/json-value.js';
import { ACCOUNT_SCHEMA } from '../../schema/urns.js';

/** The attributes of a user a client controls: everything but id, meta and the account. */
export type UserAttributes = Readonly<Record<string, unknown>>;

/** What a stored user is assembled from (see {@link assembleUser}). */
export interface StoredUserParts {
  readonly id: string;
  /** The client's attributes; `id`, `meta`, `schemas` and the account among them are ignored. */
  readonly attributes: UserAttributes;
  /** The account extension (frozen by the functions that make one, as `meta` is). */
  readonly account: AccountExtension;
  /** From {@link firstMeta} or {@link nextMeta}. */
  readonly meta: ScimUser['meta'];
  /** The User resource type: its `schemasOf` lists the extensions the user has. */
  readonly type: CompiledResourceType;
  /** The stored version's `schemas`, kept (the same array) when the new list says the same. */
  readonly previous?: readonly string[];
}

/**
 * Assembles a stored user from its parts, as a new frozen object laid out as every stored user
 * is: `schemas`, `id`, the attributes in their order, the account extension, `meta`. `active`
 * is always a boolean. Nothing it is given is changed: the attributes (a transform's result,
 * say) are read, and their values shared, not copied.
 */
export function assembleUser(parts: StoredUserParts): ScimUser {
  const { attributes } = parts;
  // `schemas` first in the layout; its value comes last, from the finished user.
  const user: Record<string, unknown> = { schemas: undefined, id: parts.id };
  // One pass over the attributes, in their order. They are own data of a parsed or copied JSON
  // value (or a stored user): `for...in` sees exactly those.
  for (const key in attributes) {
    // The core sets these itself, whatever the attributes say.
    if (key === 'id' || key === 'meta' || key === 'schemas' || key === ACCOUNT_SCHEMA) continue;
    setMember(user, key, attributes[key]);
  }
  user.userName = attributes.userName;
  user.active = attributes.active === true;
  user[ACCOUNT_SCHEMA] = parts.account;
  user.meta = parts.meta;
  const listed = parts.type.schemasOf(user);
  user.schemas = parts.previous && sameList(parts.previous, listed) ? parts.previous : listed;
  return Object.freeze(user) as unknown as ScimUser;
}

// Whether two `schemas` lists name the same URNs in the same order.
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((urn, i) => urn === b[i]));
}

/** Returns the `meta` of a new user created at `now`, frozen. */
export function firstMeta(now: string): ScimUser['meta'] {
  return Object.freeze({
    resourceType: 'User',
    created: now,
    lastModified: now,
    version: FIRST_VERSION,
  });
}

/**
 * Returns the `meta` of the version after `meta`, frozen: the next version, and `lastModified` set to
 * `now` unless `now` is undefined (a write no client sees as a change, such as queueing the
 * welcome email again, keeps it).
 */
export function nextMeta(meta: ScimUser['meta'], now: string | undefined): ScimUser['meta'] {
  const version = nextVersion(meta.version);
  return Object.freeze(
    now === undefined ? { ...meta, version } : { ...meta, lastModified: now, version },
  );
}
