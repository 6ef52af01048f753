import { scimErrors } from '../errors/index.js';
import type { CompiledResourceType, ResolvedAttribute } from '../schema/resource-type.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { AttributePath, CompareOperator, Filter, FilterValue } from './ast.js';
import { parseDateTime } from '../schema/date-time.js';
import { stringifyAttributePath } from './stringify-filter.js';

/**
 * Checks a filter against a compiled resource type and returns it in canonical form, before
 * any store sees it; paths resolve through the type's one resolver.
 *
 * - Every attribute must exist and be one that is returned (never `password`); an operator must fit the attribute's type (`gt`/`lt`/`ge`/`le`
 *   never on booleans or binaries; `co`/`sw`/`ew` only on strings and references); the value
 *   must have the attribute's type (a number for integers and decimals, a dateTime string for
 *   dateTimes); `null` only with `eq` / `ne`.
 * - Names come back in the letter case of their definitions and extension URNs as the schema
 *   spells them; core attributes carry no `schema`, so stores compare names exactly.
 * - A comparison on a multi-valued complex attribute without sub-attribute (`emails co "x"`)
 *   becomes one on its `value` sub-attribute.
 *
 * @throws ScimError 400 `invalidFilter` naming the attribute and what is wrong with it.
 * @see RFC 7644 §3.4.2.2
 * @example
 * ```ts
 * checkFilter(parseFilter('EMAILS co "@example.org"'), userResourceType());
 * // { kind: 'compare', path: { attribute: 'emails', subAttribute: 'value' }, op: 'co', ... }
 * ```
 */
export function checkFilter(filter: Filter, type: CompiledResourceType): Filter {
  return checkNode(filter, type, undefined);
}

/**
 * Checks a filter whose paths are relative to one value of the complex attribute `parent`
 * (the filter of `emails[type eq "work"]`), as {@link checkFilter} does at the top.
 *
 * @throws ScimError 400 `invalidFilter`.
 */
export function checkValueFilter(
  filter: Filter,
  type: CompiledResourceType,
  parent: AttributeDefinition,
): Filter {
  return checkNode(filter, type, parent);
}

function checkNode(
  filter: Filter,
  type: CompiledResourceType,
  parent: AttributeDefinition | undefined,
): Filter {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return {
        kind: filter.kind,
        left: checkNode(filter.left, type, parent),
        right: checkNode(filter.right, type, parent),
      };
    case 'not':
      return { kind: 'not', filter: checkNode(filter.filter, type, parent) };
    case 'present':
      return { kind: 'present', path: canonicalPath(resolve(filter.path, type, parent)) };
    case 'valuePath': {
      const name = stringifyAttributePath(filter.path);
      if (parent !== undefined) throw invalid(`value filters cannot be nested (at "${name}")`);
      const target = resolve(filter.path, type, undefined);
      if (target.subAttribute !== undefined || target.attribute.type !== 'complex') {
        throw invalid(`"${name}[...]" needs a complex attribute before the brackets`);
      }
      return {
        kind: 'valuePath',
        path: canonicalPath(target),
        filter: checkNode(filter.filter, type, target.attribute),
      };
    }
    case 'compare': {
      const name = stringifyAttributePath(filter.path);
      let target = resolve(filter.path, type, parent);
      if ((target.subAttribute ?? target.attribute).type === 'complex') {
        const value = target.attribute.multiValued
          ? target.attribute.subAttributes?.find((a) => a.name === 'value')
          : undefined;
        if (value === undefined) {
          throw invalid(
            `"${name}" is a complex attribute: compare one of its sub-attributes, such as "${name}.${target.attribute.subAttributes?.[0]?.name ?? 'value'}"`,
          );
        }
        // RFC 7644 §3.4.2.2: `emails co "x"` filters on the values of a multi-valued attribute.
        target = { ...target, subAttribute: value };
      }
      checkOperator(target.subAttribute ?? target.attribute, filter.op, filter.value, name);
      return { kind: 'compare', path: canonicalPath(target), op: filter.op, value: filter.value };
    }
  }
}

function resolve(
  path: AttributePath,
  type: CompiledResourceType,
  parent: AttributeDefinition | undefined,
): ResolvedAttribute {
  const target = type.resolve(path, parent);
  const name = stringifyAttributePath(path);
  if (target) {
    const leaf = target.subAttribute ?? target.attribute;
    // A filter on a value never returned (password) would let a client guess it one query at a
    // time; RFC 7643 §7 `returned: never` values stay out of every answer, filters included.
    if (leaf.returned === 'never' || target.attribute.returned === 'never') {
      throw invalid(`"${name}" is never returned and cannot be filtered on`);
    }
    return target;
  }
  throw invalid(
    parent === undefined
      ? `the attribute "${name}" is not defined`
      : `"${parent.name}" has no sub-attribute "${name}"`,
  );
}

function canonicalPath(target: ResolvedAttribute): AttributePath {
  const attribute = target.attribute.name;
  const sub = target.subAttribute?.name;
  if (target.extension === undefined) {
    return sub === undefined ? { attribute } : { attribute, subAttribute: sub };
  }
  const schema = target.extension.id;
  return sub === undefined ? { schema, attribute } : { schema, attribute, subAttribute: sub };
}

const ORDERING: ReadonlySet<CompareOperator> = new Set(['gt', 'lt', 'ge', 'le']);
const SUBSTRING: ReadonlySet<CompareOperator> = new Set(['co', 'sw', 'ew']);

function checkOperator(
  definition: AttributeDefinition,
  op: CompareOperator,
  value: FilterValue,
  name: string,
): void {
  const type = definition.type;
  if (value === null) {
    if (op !== 'eq' && op !== 'ne') throw invalid(`"${op}" cannot compare "${name}" with null`);
    return;
  }
  if (SUBSTRING.has(op) && type !== 'string' && type !== 'reference') {
    throw invalid(`"${op}" needs a string attribute, and "${name}" is of type ${type}`);
  }
  if (ORDERING.has(op) && (type === 'boolean' || type === 'binary')) {
    throw invalid(`"${op}" cannot order "${name}", which is of type ${type}`);
  }
  const expected = literalTypeOf(definition);
  if (typeof value !== expected) {
    throw invalid(
      `"${name}" is of type ${type}: compare it with a ${expected}, not ${JSON.stringify(value)}`,
    );
  }
  if (type === 'dateTime' && Number.isNaN(parseDateTime(value as string))) {
    throw invalid(
      `"${name}" is a dateTime: ${JSON.stringify(value)} is not one (use e.g. "2011-05-13T04:42:34Z")`,
    );
  }
}

function literalTypeOf(definition: AttributeDefinition): 'string' | 'number' | 'boolean' {
  switch (definition.type) {
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'decimal':
      return 'number';
    default:
      return 'string';
  }
}

function invalid(detail: string) {
  return scimErrors.invalidFilter(`Invalid filter: ${detail}.`);
}
