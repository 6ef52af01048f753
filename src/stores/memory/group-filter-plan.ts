import type { AttributePath, Filter } from '../../filter/ast.js';
import { GROUP_SCHEMA } from '../../schema/urns.js';

const lower = (text: string) => text.toLowerCase();

/** Tells whether a path names the Group's `members` (qualified by the Group URN or not). */
export function isMembersPath(path: AttributePath): boolean {
  return (
    lower(path.attribute) === 'members' &&
    (path.schema === undefined || lower(path.schema) === lower(GROUP_SCHEMA))
  );
}

/**
 * Returns the member id of a filter that asks for the groups holding one member
 * (`members[value eq "x"]` or `members.value eq "x"`), or `undefined` for any other filter.
 *
 * @internal
 */
export function memberEquality(filter: Filter): string | undefined {
  if (filter.kind === 'compare') {
    const { path, op, value } = filter;
    if (op === 'eq' && typeof value === 'string' && isMembersPath(path))
      return path.subAttribute !== undefined && lower(path.subAttribute) === 'value'
        ? value
        : undefined;
    return undefined;
  }
  if (filter.kind === 'valuePath' && isMembersPath(filter.path) && !filter.path.subAttribute) {
    const inner = filter.filter;
    if (
      inner.kind === 'compare' &&
      inner.op === 'eq' &&
      typeof inner.value === 'string' &&
      lower(inner.path.attribute) === 'value' &&
      inner.path.subAttribute === undefined &&
      inner.path.schema === undefined
    )
      return inner.value;
  }
  return undefined;
}

/**
 * Tells whether a filter reads the `members` attribute anywhere, so that groups must be
 * evaluated with their member lists.
 *
 * @internal
 */
export function mentionsMembers(filter: Filter): boolean {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return mentionsMembers(filter.left) || mentionsMembers(filter.right);
    case 'not':
      return mentionsMembers(filter.filter);
    default:
      return isMembersPath(filter.path);
  }
}

/**
 * Tells whether a filter reads a member's `$ref` (`members.$ref`, `members[$ref ...]`). A store
 * keeps no `$ref`: it depends on the request's base URL, so a store declares such a filter
 * unsupported rather than answering that no group matches.
 *
 * @internal
 */
export function readsMemberRef(filter: Filter): boolean {
  const isRef = (name: string | undefined) => name !== undefined && lower(name) === '$ref';
  switch (filter.kind) {
    case 'and':
    case 'or':
      return readsMemberRef(filter.left) || readsMemberRef(filter.right);
    case 'not':
      return readsMemberRef(filter.filter);
    case 'valuePath':
      return (
        isMembersPath(filter.path) &&
        (isRef(filter.path.subAttribute) || readsSubAttribute(filter.filter, isRef))
      );
    default:
      return isMembersPath(filter.path) && isRef(filter.path.subAttribute);
  }
}

// Whether a filter inside `attr[...]` names a sub-attribute `test` accepts.
function readsSubAttribute(filter: Filter, test: (name: string) => boolean): boolean {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return readsSubAttribute(filter.left, test) || readsSubAttribute(filter.right, test);
    case 'not':
      return readsSubAttribute(filter.filter, test);
    default:
      return test(filter.path.attribute);
  }
}
