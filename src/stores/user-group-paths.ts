import type { AttributePath, Filter } from '../filter/ast.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { AttributeDefinition } from '../schema/types.js';

/**
 * What a filter path names of the User's computed `groups`: the attribute itself, or one of
 * its sub-attributes (canonical names).
 */
export type GroupsPart = 'groups' | 'value' | '$ref' | 'display' | 'type';

/** The User's `groups` definition when `path` resolves to it (core schema), else `undefined`. */
export function groupsAttribute(
  path: AttributePath,
  type: CompiledResourceType,
): AttributeDefinition | undefined {
  const resolved = type.resolve(path);
  return resolved && resolved.extension === undefined && resolved.attribute.name === 'groups'
    ? resolved.attribute
    : undefined;
}

/** The part of `groups` a path names (`groups.display` → `display`), or `undefined`. */
export function groupsPart(
  path: AttributePath,
  type: CompiledResourceType,
): GroupsPart | undefined {
  const resolved = type.resolve(path);
  if (!resolved || resolved.extension !== undefined || resolved.attribute.name !== 'groups')
    return undefined;
  return (resolved.subAttribute?.name ?? 'groups') as GroupsPart;
}

// What a filter that does not read `groups` reads of them: shared, so the usual filter (one
// comparison, asked about on every request by a store's `supportsFilter`) builds no set.
const NO_PARTS: ReadonlySet<GroupsPart> = new Set();

/**
 * Returns every part of `groups` a filter reads, inside `groups[...]` too (by sub-attribute);
 * empty when the filter does not read the user's groups.
 *
 * @internal
 */
export function groupsPartsRead(
  filter: Filter,
  type: CompiledResourceType,
): ReadonlySet<GroupsPart> {
  if (filter.kind === 'compare') {
    const part = groupsPart(filter.path, type);
    return part === undefined ? NO_PARTS : new Set([part]);
  }
  const parts = new Set<GroupsPart>();
  const visit = (node: Filter, parent: AttributeDefinition | undefined): void => {
    switch (node.kind) {
      case 'and':
      case 'or':
        visit(node.left, parent);
        visit(node.right, parent);
        return;
      case 'not':
        visit(node.filter, parent);
        return;
      case 'valuePath': {
        const groups = parent ? undefined : groupsAttribute(node.path, type);
        if (groups) visit(node.filter, groups);
        return;
      }
      default: {
        const part = parent
          ? (type.resolve(node.path, parent)?.attribute.name as GroupsPart | undefined)
          : groupsPart(node.path, type);
        if (part) parts.add(part);
      }
    }
  };
  visit(filter, undefined);
  return parts;
}

/**
 * Returns the group id of a filter that asks for the members of one group
 * (`groups.value eq "g"` or `groups[value eq "g"]`), or `undefined` for any other filter.
 *
 * @internal
 */
export function groupIdEquality(filter: Filter, type: CompiledResourceType): string | undefined {
  if (filter.kind === 'compare') {
    const { op, value, path } = filter;
    return op === 'eq' && typeof value === 'string' && groupsPart(path, type) === 'value'
      ? value
      : undefined;
  }
  if (filter.kind !== 'valuePath' || filter.path.subAttribute !== undefined) return undefined;
  const groups = groupsAttribute(filter.path, type);
  const inner = filter.filter;
  if (!groups || inner.kind !== 'compare' || inner.op !== 'eq') return undefined;
  if (typeof inner.value !== 'string') return undefined;
  return type.resolve(inner.path, groups)?.attribute.name === 'value' ? inner.value : undefined;
}
