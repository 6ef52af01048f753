import type { AccountExtension, ScimUser } from '../../schema/user-resource.js';
import { ACCOUNT_SCHEMA, USER_SCHEMA } from '../../schema/user-schema.js';
import { FIRST_VERSION, nextVersion } from '../../schema/version.js';
import { setMember } from '../../json/json-value.js';

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
  /** The `schemas` list, from {@link userSchemas}. */
  readonly schemas: readonly string[];
}

/**
 * Assembles a stored user from its parts, as a new frozen object laid out as every stored user
 * is: `schemas`, `id`, the attributes in their order, the account extension, `meta`. `active`
 * is always a boolean. Nothing it is given is changed: the attributes (a transform's result,
 * say) are read, and their values shared, not copied.
 */
export function assembleUser(parts: StoredUserParts): ScimUser {
  const { attributes } = parts;
  const user: Record<string, unknown> = { schemas: parts.schemas, id: parts.id };
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
  return Object.freeze(user) as unknown as ScimUser;
}

/**
 * Returns the `schemas` of a user with these attributes: the core schema, the extensions of
 * `extensionIds` that are present, in that order, then the account extension. `previous` is
 * returned as it is when it already says exactly that, so a write that keeps the extensions
 * keeps the stored list.
 */
export function userSchemas(
  attributes: UserAttributes,
  extensionIds: readonly string[],
  previous?: readonly string[],
): readonly string[] {
  if (previous && listsExtensionsOf(previous, attributes, extensionIds)) return previous;
  const schemas = [USER_SCHEMA];
  for (const urn of extensionIds) if (attributes[urn] !== undefined) schemas.push(urn);
  schemas.push(ACCOUNT_SCHEMA);
  return Object.freeze(schemas);
}

// Whether `schemas` is exactly what `userSchemas` would build, without building it.
function listsExtensionsOf(
  schemas: readonly string[],
  attributes: UserAttributes,
  extensionIds: readonly string[],
): boolean {
  if (schemas[0] !== USER_SCHEMA) return false;
  let at = 1;
  for (const urn of extensionIds) {
    if (attributes[urn] !== undefined && schemas[at++] !== urn) return false;
  }
  return schemas.length === at + 1 && schemas[at] === ACCOUNT_SCHEMA;
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
