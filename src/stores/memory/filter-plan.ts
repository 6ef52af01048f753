import type { CompareFilter, Filter, FilterValue } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { userNameKey } from '../../schema/user-name-key.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { groupIdEquality } from '../user-group-paths.js';
import type { TenantUsers } from './tenant-users.js';
import { USER_SCHEMA } from '../../schema/urns.js';
import { textCost, WORK_COSTS, type WorkMeter } from '../../filter/work-meter.js';

/** The attributes the memory store keeps an index on. */
type IndexedAttribute = 'id' | 'userName' | 'externalId';

interface IndexedEquality {
  readonly attribute: IndexedAttribute;
  readonly value: FilterValue;
}

const INDEXED: Readonly<Record<string, IndexedAttribute>> = {
  id: 'id',
  username: 'userName',
  externalid: 'externalId',
};
// The same under the names as the schema spells them, found without lower-casing.
const SPELLED: ReadonlyMap<string, IndexedAttribute> = new Map([
  ['id', 'id'],
  ['userName', 'userName'],
  ['externalId', 'externalId'],
]);

/** Recognises `id eq`, `userName eq` and `externalId eq`, the forms an index answers. */
export function indexedEquality(filter: Filter): IndexedEquality | undefined {
  if (filter.kind !== 'compare' || filter.op !== 'eq') return undefined;
  const { path } = filter as CompareFilter;
  if (path.subAttribute !== undefined) return undefined;
  if (path.schema !== undefined && path.schema.toLowerCase() !== USER_SCHEMA.toLowerCase())
    return undefined;
  const attribute = SPELLED.get(path.attribute) ?? INDEXED[path.attribute.toLowerCase()];
  return attribute && { attribute, value: filter.value };
}

/**
 * Tells whether the store can answer `filter` without the filter engine: every leaf is an
 * indexed equality, combined with `and`, `or` and `not`.
 *
 * @internal
 */
export function isIndexOnly(filter: Filter): boolean {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return isIndexOnly(filter.left) && isIndexOnly(filter.right);
    case 'not':
      return isIndexOnly(filter.filter);
    default:
      return indexedEquality(filter) !== undefined;
  }
}

/** The membership index `candidateIds` narrows `groups.value eq` filters with. */
export interface MembershipIndex {
  /** The resource type paths resolve in. */
  readonly type: CompiledResourceType;
  /** Every member of a group, directly or through nested groups. */
  membersUnder(groupId: string): Iterable<string>;
}

/**
 * Returns the ids an index narrows `filter` to, or `undefined` when only a scan can answer it.
 * The ids are candidates: each is still checked against the whole filter.
 *
 * @internal
 */
export function candidateIds(
  users: TenantUsers,
  filter: Filter,
  memberships?: MembershipIndex,
): Set<string> | undefined {
  if (filter.kind === 'and') {
    const left = candidateIds(users, filter.left, memberships);
    const right = candidateIds(users, filter.right, memberships);
    if (left && right) return left.size <= right.size ? left : right;
    return left ?? right;
  }
  if (filter.kind === 'or') {
    const left = candidateIds(users, filter.left, memberships);
    const right = candidateIds(users, filter.right, memberships);
    return left && right ? new Set([...left, ...right]) : undefined;
  }
  const groupId = memberships && groupIdEquality(filter, memberships.type);
  if (groupId !== undefined) {
    // The group's members, nested ones included, that are users of the tenant.
    const ids = new Set<string>();
    for (const id of memberships?.membersUnder(groupId) ?? []) if (users.byId.has(id)) ids.add(id);
    return ids;
  }
  const equality = indexedEquality(filter);
  if (!equality) return undefined;
  const { attribute, value } = equality;
  // A non-string value never equals a string attribute: a valid query that finds nothing.
  if (typeof value !== 'string') return new Set();
  if (attribute === 'id') return new Set(users.byId.has(value) ? [value] : []);
  if (attribute === 'userName') {
    const id = users.idByUserName.get(userNameKey(value));
    return new Set(id === undefined ? [] : [id]);
  }
  return new Set(users.idsWithExternalId(value));
}

/**
 * Returns the users one indexed equality finds, in id order, straight from its index: each
 * matches the equality by construction (the userName index is keyed by `userNameKey`), so
 * none is tested again.
 *
 * @internal
 */
export function usersEqualTo(
  users: TenantUsers,
  { attribute, value }: IndexedEquality,
): ScimUser[] {
  // A non-string value never equals a string attribute: a valid query that finds nothing.
  if (typeof value !== 'string') return [];
  if (attribute === 'externalId')
    return users
      .idsWithExternalId(value)
      .sort()
      .map((id) => users.byId.get(id) as ScimUser);
  const id = attribute === 'id' ? value : users.idByUserName.get(userNameKey(value));
  const user = id === undefined ? undefined : users.byId.get(id);
  return user ? [user] : [];
}

/**
 * Returns the ids a filter of indexed equalities joined by `or` matches (`id eq "a" or id eq
 * "b" or …`, `userName eq` terms likewise), straight from the indexes: each index answers its
 * equality exactly (see {@link usersEqualTo}), so their union is the answer and none is tested
 * again. `undefined` for any other filter.
 *
 * @internal
 */
export function idsEqualToAny(users: TenantUsers, filter: Filter): Set<string> | undefined {
  const ids = new Set<string>();
  const terms: Filter[] = [filter];
  for (let term = terms.pop(); term !== undefined; term = terms.pop()) {
    if (term.kind === 'or') {
      terms.push(term.left, term.right);
      continue;
    }
    const equality = indexedEquality(term);
    if (!equality) return undefined;
    for (const user of usersEqualTo(users, equality)) ids.add(user.id);
  }
  return ids;
}

/**
 * Tells whether `user` matches a filter made only of indexed equalities (see
 * {@link isIndexOnly}), with the same rules as the filter engine: userName compares by its key, id
 * and externalId are caseExact. Each comparison, and the text it folds, is charged to `meter`.
 *
 * @internal
 */
export function matchesIndexed(user: ScimUser, filter: Filter, meter?: WorkMeter): boolean {
  switch (filter.kind) {
    case 'and':
      return matchesIndexed(user, filter.left, meter) && matchesIndexed(user, filter.right, meter);
    case 'or':
      return matchesIndexed(user, filter.left, meter) || matchesIndexed(user, filter.right, meter);
    case 'not':
      return !matchesIndexed(user, filter.filter, meter);
    default: {
      const equality = indexedEquality(filter);
      if (!equality) throw new Error(`Not an indexed equality: ${filter.kind}.`);
      return equalsIndexed(user, equality, meter);
    }
  }
}

function equalsIndexed(
  user: ScimUser,
  { attribute, value }: IndexedEquality,
  meter: WorkMeter | undefined,
): boolean {
  // Each test reads the term afresh and folds both sides: about four visits' work.
  meter?.spend(4 * WORK_COSTS.visit);
  if (typeof value !== 'string') return false;
  if (attribute === 'userName') {
    meter?.spend(textCost(user.userName, true) + textCost(value, true));
    return userNameKey(user.userName) === userNameKey(value);
  }
  return user[attribute] === value;
}
