import { isScimError, scimErrors } from '../errors/index.js';
import { compileValueFilter, type MeteredPredicate } from '../filter/compile-filter.js';
import type { Filter, FilterValue } from '../filter/ast.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { ElementPredicate, ValueLookup } from './types.js';
import { previewJson } from '../json/preview-json.js';

/** Hears a filter literal the dialect read as another type: `"True"` as `true`. */
export type LiteralHeard = (received: string, became: boolean) => void;

/**
 * Compiles the filter of a value-filter path (`emails[type eq "work"]`) into a predicate over
 * one value of the multi-valued attribute, with the shared filter evaluator (so `caseExact`,
 * dateTimes and `pr` behave as in list filters), every name resolved once. With
 * `stringBooleans`, `"True"` / `"False"` compared with a boolean sub-attribute are booleans, each
 * reported to `heard`.
 *
 * @throws ScimError 400 `invalidPath` when the filter names something the attribute lacks or
 *   compares a value of the wrong type.
 * @see RFC 7644 §3.4.2.2, §3.5.2
 */
export function compileElementFilter(
  filter: Filter,
  parent: AttributeDefinition,
  index: CompiledResourceType,
  stringBooleans: boolean,
  heard?: LiteralHeard,
): ElementPredicate {
  const normalised = stringBooleans ? booleanLiterals(filter, parent, index, heard) : filter;
  let predicate: MeteredPredicate;
  try {
    predicate = compileValueFilter(normalised, index, parent);
  } catch (error) {
    if (!isScimError(error)) throw error;
    throw scimErrors.invalidPath(
      `The value filter of "${parent.name}" is not valid: ${error.detail}`,
    );
  }
  return (element, meter) =>
    typeof element === 'object' &&
    element !== null &&
    !Array.isArray(element) &&
    predicate(element as Record<string, unknown>, meter);
}

/** Rewrites `primary eq "True"` (Entra ID) into `primary eq true` for boolean sub-attributes. */
function booleanLiterals(
  filter: Filter,
  parent: AttributeDefinition,
  index: CompiledResourceType,
  heard: LiteralHeard | undefined,
): Filter {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return {
        ...filter,
        left: booleanLiterals(filter.left, parent, index, heard),
        right: booleanLiterals(filter.right, parent, index, heard),
      };
    case 'not':
      return { ...filter, filter: booleanLiterals(filter.filter, parent, index, heard) };
    case 'compare': {
      if (typeof filter.value !== 'string' || filter.path.subAttribute !== undefined) return filter;
      const sub = index.subAttribute(parent, filter.path.attribute);
      if (!sub) return filter;
      const value = filterLiteral(filter.value, sub, true);
      if (value === filter.value) return filter;
      heard?.(filter.value, value as boolean);
      return { ...filter, value };
    }
    default:
      return filter;
  }
}

// Types whose filter `eq` is plain equality of the value (dateTimes compare as instants).
const LOOKUP_TYPES: ReadonlySet<string> = new Set([
  'string',
  'reference',
  'binary',
  'boolean',
  'integer',
  'decimal',
]);

/**
 * Lists the equalities every value matching the filter must satisfy (`value eq "x"`, alone or
 * as conjuncts of an `and`), so the values to test can come from an index instead of a scan.
 * Empty when the filter has none (`or`, `not`, `co`, dateTimes, `eq null`).
 */
export function valueLookupsOf(
  filter: Filter,
  parent: AttributeDefinition,
  index: CompiledResourceType,
  stringBooleans: boolean,
): ValueLookup[] {
  if (filter.kind === 'and') {
    return [
      ...valueLookupsOf(filter.left, parent, index, stringBooleans),
      ...valueLookupsOf(filter.right, parent, index, stringBooleans),
    ];
  }
  if (filter.kind !== 'compare' || filter.op !== 'eq' || filter.value === null) return [];
  if (filter.path.schema !== undefined || filter.path.subAttribute !== undefined) return [];
  const sub = index.subAttribute(parent, filter.path.attribute);
  if (!sub || sub.multiValued || !LOOKUP_TYPES.has(sub.type)) return [];
  return [{ sub, value: filterLiteral(filter.value, sub, stringBooleans) }];
}

/** Resolves a name inside a value filter to a sub-attribute of the filtered attribute. */
export function subAttributeOf(
  path: { readonly attribute: string; readonly subAttribute?: string },
  parent: AttributeDefinition,
  index: CompiledResourceType,
): AttributeDefinition {
  const sub =
    path.subAttribute === undefined ? index.subAttribute(parent, path.attribute) : undefined;
  if (!sub) {
    const name =
      path.subAttribute === undefined ? path.attribute : `${path.attribute}.${path.subAttribute}`;
    throw scimErrors.invalidPath(
      `"${parent.name}" has no sub-attribute ${previewJson(name)} to filter on.`,
    );
  }
  return sub;
}

/** Turns the filter literal into the attribute's type where the dialect allows it. */
export function filterLiteral(
  value: FilterValue,
  sub: AttributeDefinition,
  stringBooleans: boolean,
): FilterValue {
  if (sub.type === 'boolean' && stringBooleans && typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  return value;
}

/**
 * Reads the values a value filter pins down (`type eq "work" and primary eq true` gives
 * `{type: "work", primary: true}`), so a filtered add that matches nothing can create the value.
 * Returns `undefined` when the filter is not a conjunction of `eq` comparisons.
 */
export function equalitiesOf(
  filter: Filter,
  parent: AttributeDefinition,
  index: CompiledResourceType,
  stringBooleans: boolean,
): Record<string, unknown> | undefined {
  if (filter.kind === 'and') {
    const l = equalitiesOf(filter.left, parent, index, stringBooleans);
    const r = l && equalitiesOf(filter.right, parent, index, stringBooleans);
    return l && r ? { ...l, ...r } : undefined;
  }
  if (filter.kind !== 'compare' || filter.op !== 'eq' || filter.value === null) return undefined;
  const sub = subAttributeOf(filter.path, parent, index);
  return { [sub.name]: filterLiteral(filter.value, sub, stringBooleans) };
}
