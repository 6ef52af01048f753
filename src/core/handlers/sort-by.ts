import type { AttributePath } from '../../filter/ast.js';
import { scimErrors } from '../../errors/index.js';
import { parseAttributePath } from '../../schema/attribute-path.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';

/**
 * Checks a `sortBy` attribute path against the schemas and returns it with canonical names.
 * A complex attribute sorts by its `value` sub-attribute; a multi-valued one by its primary
 * (else first) value, as RFC 7644 §3.4.2.3 says.
 *
 * @throws ScimError 400 `invalidValue` for an attribute that does not exist or cannot be sorted.
 */
export function checkSortBy(text: string, type: CompiledResourceType): AttributePath {
  const path = parseAttributePath(text.trim());
  const target = path && type.resolve(path);
  if (!path || !target)
    throw scimErrors.invalidValue(`"sortBy": "${text}" is not an attribute of the ${type.name}.`);
  // Sorting by a value nobody may read (password) would leak it through the order.
  if ((target.subAttribute ?? target.attribute).returned === 'never') {
    throw scimErrors.invalidValue(
      `"sortBy": "${text}" is never returned, so it cannot be sorted on.`,
    );
  }
  let sub = target.subAttribute;
  if (!sub && target.attribute.type === 'complex') {
    sub = type.subAttribute(target.attribute, 'value');
    if (!sub)
      throw scimErrors.invalidValue(
        `"sortBy": "${text}" is a complex attribute; name one of its sub-attributes.`,
      );
  }
  const canonical: { schema?: string; attribute: string; subAttribute?: string } = {
    attribute: target.attribute.name,
  };
  if (target.extension !== undefined) canonical.schema = target.extension.id;
  if (sub) canonical.subAttribute = sub.name;
  return canonical;
}
