import { parseAttributePath } from '../../schema/attribute-path.js';
import type { Projection } from '../../schema/project-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';

/**
 * Tells whether a response shaped by `shown` shows a group's `members`, so that a read that
 * does not (`excludedAttributes=members`, what Entra ID and Okta ask for, or `attributes`
 * that do not name it) asks the store for no member at all.
 *
 * @see RFC 7644 §3.9
 */
export function showsMembers(shown: Projection, type: CompiledResourceType): boolean {
  const members = type.attribute(type.core, 'members');
  const names = (list: readonly string[] | undefined, whole: boolean) =>
    (list ?? []).some((text) => {
      const path = parseAttributePath(text.trim());
      const resolved = path && type.resolve(path);
      if (resolved === undefined || resolved.attribute !== members) return false;
      return !whole || resolved.subAttribute === undefined;
    });
  if (shown.attributes !== undefined && shown.attributes.length > 0)
    return names(shown.attributes, false);
  return !names(shown.excludedAttributes, true);
}
