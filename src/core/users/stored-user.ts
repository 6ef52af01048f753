import type { AccountExtension, ScimUser } from '../../schema/user-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { FIRST_VERSION, nextVersion } from '../../schema/version.js';
import { exactObject } from '../../json/exact-objects.js';
import { SettledBuilder, settledRecord } from '../../json/settled-json.js';
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
  /**
   * The stored version the user replaces: its `schemas` is kept (the same array) when the new
   * list says the same, and its values the attributes take unchanged are shared.
   */
  readonly current?: ScimUser;
}

/**
 * Assembles a stored user from its parts, as a new settled object (src/json/settled-json.ts)
 * laid out as every stored user is: `schemas`, `id`, the attributes in their order, the account
 * extension, `meta`. `active` omitted on a new user is `false`; omitted on a stored user's
 * next version it stays unassigned (a PATCH removed it). Nothing it is given is changed: the
 * attributes (a transform's result, say) are read; a value the stored version it replaces
 * holds (the same object), or a settled one, is shared, anything else copied. Built settled in
 * this one pass, it is what a memory store keeps, without a walk or a copy of its own.
 */
export function assembleUser(parts: StoredUserParts): ScimUser {
  const { attributes } = parts;
  // One pass over the attributes, in their order. They are own data of a parsed or copied JSON
  // value (or a stored user): `for...in` sees exactly those.
  let size = 4; // schemas, id, the account, meta
  for (const key in attributes) if (!isSetByCore(key)) size++;
  if (!('userName' in attributes)) size++;
  // Unassigned only when a stored user's next version leaves it out (a PATCH removed it).
  const active = attributes.active ?? (parts.current ? undefined : false);
  if (!('active' in attributes)) size++;
  const user = new SettledBuilder(size, parts.current, exactObject);
  // `schemas` first in the layout; its value comes last, from the finished user.
  user.set('schemas', undefined);
  user.set('id', parts.id);
  for (const key in attributes) {
    if (!isSetByCore(key) && (key !== 'active' || active !== undefined)) {
      user.set(key, attributes[key]);
    }
  }
  user.set('userName', attributes.userName);
  if (active !== undefined) user.set('active', active === true);
  user.set(ACCOUNT_SCHEMA, parts.account);
  user.set('meta', parts.meta);
  const listed = parts.type.schemasOf(user.members);
  const previous = parts.current?.schemas;
  user.set('schemas', previous && sameList(previous, listed) ? previous : listed);
  return user.finish() as unknown as ScimUser;
}

// The members the core sets itself, whatever the attributes say.
function isSetByCore(key: string): boolean {
  return key === 'id' || key === 'meta' || key === 'schemas' || key === ACCOUNT_SCHEMA;
}

// Whether two `schemas` lists name the same URNs in the same order.
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((urn, i) => urn === b[i]));
}

/** Returns the `meta` of a new user created at `now`, settled (see `settledRecord`). */
export function firstMeta(now: string): ScimUser['meta'] {
  return settledRecord({
    resourceType: 'User',
    created: now,
    lastModified: now,
    version: FIRST_VERSION,
  });
}

/**
 * Returns the `meta` of the version after `meta`, settled: the next version, and `lastModified` set to
 * `now` unless `now` is undefined (a write no client sees as a change, such as queueing the
 * welcome email again, keeps it).
 */
export function nextMeta(meta: ScimUser['meta'], now: string | undefined): ScimUser['meta'] {
  const version = nextVersion(meta.version);
  return settledRecord(
    now === undefined ? { ...meta, version } : { ...meta, lastModified: now, version },
  );
}
