import { isJsonObject } from '../json/json-value.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { CompareFilter, Filter } from './ast.js';
import { checkFilter, checkValueFilter } from './check-filter.js';
import { compileComparison, isPresentValue } from './compile-comparison.js';
import { WORK_COSTS, type WorkMeter } from './work-meter.js';

/** A compiled filter: tells whether one resource matches. */
export type FilterPredicate = (resource: Record<string, unknown>) => boolean;

/**
 * A compiled filter that charges each value it tests and each character it compares to the
 * `meter` it is given (when it is given one) before doing that work, so a filter over budget
 * stops there.
 */
export type MeteredPredicate = (
  resource: Record<string, unknown>,
  meter: WorkMeter | undefined,
) => boolean;

type Resource = Record<string, unknown>;
type Getter = (resource: Resource) => unknown;
type Leaf = (value: unknown, meter: WorkMeter | undefined) => boolean;

/**
 * Compiles a filter into a predicate over resources in their SCIM JSON form, checking it
 * against the compiled resource type first (see {@link checkFilter}) and resolving every attribute once, so
 * that testing many resources costs no lookups in the schema.
 *
 * Values are read under their canonical names (as scimkit stores them); extension attributes
 * under the key equal to the extension's URN. Each comparison follows the attribute's
 * definition: `caseExact`, type (dateTimes compare as instants), and multi-valued attributes
 * match when any value does. `pr` needs a value that is not null, not `""`, not `[]` and not
 * a complex value without present sub-attributes; `ne` is true when the attribute is absent.
 * With a `meter`, every test is charged to it first (see `WorkMeter`): a filter over its budget
 * throws the meter's error.
 *
 * @throws ScimError 400 `invalidFilter` when the filter does not fit the schemas.
 * @see RFC 7644 §3.4.2.2
 * @example
 * ```ts
 * const matches = compileFilter(parseFilter('emails[type eq "work"]'), userResourceType());
 * users.filter(matches);
 * ```
 */
export function compileFilter(
  filter: Filter,
  type: CompiledResourceType,
  meter?: WorkMeter,
): FilterPredicate {
  const test = compileNode(checkFilter(filter, type), type, undefined);
  return (resource) => test(resource, meter);
}

/**
 * Compiles the filter of a value path (`emails[type eq "work"]`) into a predicate over one
 * value of the complex attribute `parent`, with the rules of {@link compileFilter}; each call
 * is given the meter of its request.
 *
 * @throws ScimError 400 `invalidFilter` when the filter does not fit the attribute.
 */
export function compileValueFilter(
  filter: Filter,
  type: CompiledResourceType,
  parent: AttributeDefinition,
): MeteredPredicate {
  return compileNode(checkValueFilter(filter, type, parent), type, parent);
}

function compileNode(
  filter: Filter,
  type: CompiledResourceType,
  parent: AttributeDefinition | undefined,
): MeteredPredicate {
  switch (filter.kind) {
    case 'and': {
      const left = compileNode(filter.left, type, parent);
      const right = compileNode(filter.right, type, parent);
      return (r, meter) => left(r, meter) && right(r, meter);
    }
    case 'or': {
      const left = compileNode(filter.left, type, parent);
      const right = compileNode(filter.right, type, parent);
      return (r, meter) => left(r, meter) || right(r, meter);
    }
    case 'not': {
      const inner = compileNode(filter.filter, type, parent);
      return (r, meter) => !inner(r, meter);
    }
    case 'valuePath': {
      const target = type.resolve(filter.path);
      if (!target) throw new Error('unreachable: checked filter');
      const get = getterOf(target.extension?.id, target.attribute.name);
      const inner = compileNode(filter.filter, type, target.attribute);
      return (r, meter) => {
        const value = get(r);
        if (Array.isArray(value)) {
          meter?.spend(value.length * WORK_COSTS.visit);
          for (const item of value) if (isJsonObject(item) && inner(item, meter)) return true;
          return false;
        }
        return isJsonObject(value) && inner(value, meter);
      };
    }
    case 'present':
    case 'compare': {
      const target = type.resolve(filter.path, parent);
      if (!target) throw new Error('unreachable: checked filter');
      const get = getterOf(target.extension?.id, target.attribute.name);
      const sub = target.subAttribute?.name;
      const definition = target.subAttribute ?? target.attribute;
      if (filter.kind === 'present') return some(get, sub, isPresentValue);
      return compileCompare(filter, definition, get, sub);
    }
  }
}

function compileCompare(
  filter: CompareFilter,
  definition: AttributeDefinition,
  get: Getter,
  sub: string | undefined,
): MeteredPredicate {
  if (filter.value === null) {
    // `eq null` asks for absence, `ne null` for presence (RFC 7644 §3.4.2.2 lists null as a
    // comparable value but gives it no other meaning).
    const present = some(get, sub, isPresentValue);
    return filter.op === 'eq' ? (r, meter) => !present(r, meter) : present;
  }
  if (filter.op === 'ne') {
    const equal = compileComparison(definition, 'eq', filter.value);
    const anyValue = some(get, sub, () => true);
    const anyOther = some(get, sub, (v, meter) => !equal(v, meter));
    return (r, meter) => !anyValue(r, meter) || anyOther(r, meter);
  }
  return some(get, sub, compileComparison(definition, filter.op, filter.value));
}

function getterOf(extension: string | undefined, name: string): Getter {
  if (extension === undefined) return (r) => r[name];
  return (r) => {
    const values = r[extension];
    return isJsonObject(values) ? values[name] : undefined;
  };
}

/**
 * Builds a predicate that is true when some value at the path passes `leaf`: the value
 * itself, each item of a multi-valued attribute, or the sub-attribute of each item.
 * Null and undefined values are never passed to `leaf`. Each call is charged a visit, and each
 * value of a multi-valued attribute another; `leaf` charges the text it reads (`pr` reads a
 * value's members, which the schema bounds, so its visit covers it).
 */
function some(get: Getter, sub: string | undefined, leaf: Leaf): MeteredPredicate {
  if (sub === undefined)
    return (r, meter) => {
      meter?.spend(WORK_COSTS.visit);
      return anyOf(get(r), leaf, meter);
    };
  return (r, meter) => {
    meter?.spend(WORK_COSTS.visit);
    const value = get(r);
    if (Array.isArray(value)) {
      meter?.spend(value.length * WORK_COSTS.visit);
      for (const item of value)
        if (isJsonObject(item) && anyOf(item[sub], leaf, meter)) return true;
      return false;
    }
    return isJsonObject(value) && anyOf(value[sub], leaf, meter);
  };
}

function anyOf(value: unknown, leaf: Leaf, meter: WorkMeter | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (!Array.isArray(value)) return leaf(value, meter);
  meter?.spend(value.length * WORK_COSTS.visit);
  for (const item of value)
    if (item !== null && item !== undefined && leaf(item, meter)) return true;
  return false;
}
