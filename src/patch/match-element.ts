import { scimErrors } from '../errors/index.js';
import type { CompareFilter, Filter, FilterValue } from '../filter/ast.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { SchemaIndex } from './schema-index.js';

/** Tells whether one value of a multi-valued attribute matches a value filter. */
export type ElementPredicate = (element: unknown) => boolean;

/**
 * Compiles the filter of a value-filter path (`emails[type eq "work"]`) into a predicate over
 * one value of the multi-valued attribute, resolving every name against its sub-attributes
 * once, so a request with many values pays for resolution once.
 *
 * @throws ScimError 400 `invalidPath` when the filter names something the attribute lacks.
 * @see RFC 7644 §3.4.2.2, §3.5.2
 */
export function compileElementFilter(
  filter: Filter,
  parent: AttributeDefinition,
  index: SchemaIndex,
  stringBooleans: boolean,
): ElementPredicate {
  switch (filter.kind) {
    case 'and': {
      const l = compileElementFilter(filter.left, parent, index, stringBooleans);
      const r = compileElementFilter(filter.right, parent, index, stringBooleans);
      return (e) => l(e) && r(e);
    }
    case 'or': {
      const l = compileElementFilter(filter.left, parent, index, stringBooleans);
      const r = compileElementFilter(filter.right, parent, index, stringBooleans);
      return (e) => l(e) || r(e);
    }
    case 'not': {
      const inner = compileElementFilter(filter.filter, parent, index, stringBooleans);
      return (e) => !inner(e);
    }
    case 'present': {
      const name = subAttributeOf(filter.path, parent, index).name;
      return (e) => isPresent(field(e, name));
    }
    case 'compare':
      return compileCompare(filter, subAttributeOf(filter.path, parent, index), stringBooleans);
    default:
      throw scimErrors.invalidPath(
        `A value filter of "${parent.name}" cannot hold another value filter.`,
      );
  }
}

/** Resolves a name inside a value filter to a sub-attribute of the filtered attribute. */
export function subAttributeOf(
  path: { readonly attribute: string; readonly subAttribute?: string },
  parent: AttributeDefinition,
  index: SchemaIndex,
): AttributeDefinition {
  const sub =
    path.subAttribute === undefined ? index.subAttribute(parent, path.attribute) : undefined;
  if (!sub) {
    const name =
      path.subAttribute === undefined ? path.attribute : `${path.attribute}.${path.subAttribute}`;
    throw scimErrors.invalidPath(`"${parent.name}" has no sub-attribute "${name}" to filter on.`);
  }
  return sub;
}

function field(element: unknown, name: string): unknown {
  return typeof element === 'object' && element !== null
    ? (element as Record<string, unknown>)[name]
    : undefined;
}

function isPresent(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
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

function compileCompare(
  f: CompareFilter,
  sub: AttributeDefinition,
  stringBooleans: boolean,
): ElementPredicate {
  const name = sub.name;
  const literal = filterLiteral(f.value, sub, stringBooleans);
  const fold = (s: string) => (sub.caseExact ? s : s.toLowerCase());
  const isDate = sub.type === 'dateTime';
  const want =
    typeof literal === 'string' ? (isDate ? Date.parse(literal) : fold(literal)) : literal;
  const op = f.op;
  return (element) => {
    const raw = field(element, name);
    if (raw === undefined || raw === null)
      return op === 'ne' ? true : literal === null && op === 'eq';
    let have: unknown = raw;
    if (typeof raw === 'string') have = isDate ? Date.parse(raw) : fold(raw);
    switch (op) {
      case 'eq':
        return have === want;
      case 'ne':
        return have !== want;
      case 'co':
        return typeof have === 'string' && typeof want === 'string' && have.includes(want);
      case 'sw':
        return typeof have === 'string' && typeof want === 'string' && have.startsWith(want);
      case 'ew':
        return typeof have === 'string' && typeof want === 'string' && have.endsWith(want);
      default:
        return ordered(op, have, want);
    }
  };
}

function ordered(op: 'gt' | 'ge' | 'lt' | 'le', a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b || (typeof a !== 'string' && typeof a !== 'number')) return false;
  const x = a as string | number;
  const y = b as string | number;
  return op === 'gt' ? x > y : op === 'ge' ? x >= y : op === 'lt' ? x < y : x <= y;
}

/**
 * Reads the values a value filter pins down (`type eq "work" and primary eq true` gives
 * `{type: "work", primary: true}`), so a filtered add that matches nothing can create the value.
 * Returns `undefined` when the filter is not a conjunction of `eq` comparisons.
 */
export function equalitiesOf(
  filter: Filter,
  parent: AttributeDefinition,
  index: SchemaIndex,
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
