import type { AttributePath } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { AttributeDefinition } from '../../schema/types.js';
import {
  documentMember,
  resourceScope,
  USERS_TABLE,
  zippedElement,
  zippedElements,
  type ResourceTable,
} from './filter-targets.js';
import { comparedText, type JsonRef } from './sql-predicates.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/** A typed SQL value of one jsonb value, NULL when absent or of another type. */
function typedValue(ref: JsonRef, def: AttributeDefinition): string {
  const when = (type: string, sql: string) =>
    `CASE WHEN jsonb_typeof(${ref.json}) = '${type}' THEN ${sql} END`;
  switch (def.type) {
    case 'complex':
      throw new UnsupportedFilterError(`${def.name} is complex: sort by one of its sub-attributes`);
    case 'boolean':
      return when('boolean', `(${ref.text})::boolean`);
    case 'integer':
    case 'decimal':
      return when('number', `(${ref.text})::numeric`);
    case 'dateTime':
      return when('string', `(${ref.text})::timestamptz`);
    default:
      // Folded as the core's compileSort folds, in byte order as the core compares strings.
      return `(${comparedText(ref, def.caseExact)}) COLLATE "C"`;
  }
}

/**
 * Builds the SQL expression a `sortBy` path orders by, on the resource's table (default the
 * users table): the indexed column for `id`, `userName` or a group's `displayName` (by its key
 * column, folded as the core folds), `externalId` and the `meta` timestamps; a typed value of
 * the document otherwise; for a multi-valued attribute the primary value, else the first. The
 * order is that of the core's `compileSort`.
 *
 * @throws UnsupportedFilterError for a path the schemas do not define, a complex value, or an
 * attribute kept in rows of its own (a group's `members`).
 * @see RFC 7644 §3.4.2.3
 */
export function sortKey(
  path: AttributePath,
  type: CompiledResourceType,
  table: ResourceTable = USERS_TABLE,
): string {
  const target = resourceScope(type, table)(path);
  switch (target.kind) {
    case 'column':
      if (target.key !== undefined) return target.key;
      if (target.caseExact) return target.column;
      throw new UnsupportedFilterError(`${path.attribute} is kept without its case folding`);
    case 'instant':
      return target.column;
    case 'json':
      return typedValue(target.ref, target.def);
    case 'multi': {
      const { attribute, sub, elements } = target;
      // Values kept as rows of their own (a group's members) have no first or primary one.
      if (!elements.whole) throw new UnsupportedFilterError(`${attribute.name} has no order`);
      const def =
        sub ??
        (attribute.type === 'complex'
          ? attribute.subAttributes?.find((s) => s.name === 'value')
          : attribute);
      if (!def) throw new UnsupportedFilterError(`${attribute.name} has no value to sort by`);
      const element = zippedElement('s');
      const ref = def === attribute ? element : documentMember(element, def.name);
      return `(SELECT ${typedValue(ref, def)}
        FROM ${zippedElements(elements.whole, 's', true)}
        ORDER BY COALESCE(s.v->'primary' = 'true'::jsonb, false) DESC, s.n LIMIT 1)`;
    }
  }
}

/**
 * Tells whether the expression of {@link sortKey} may be NULL: false only for the NOT NULL
 * columns (`id`, `userName`'s or `displayName`'s key, the `meta` timestamps). A keyset condition on a key that is
 * never NULL has no NULL branch, so the index on that key bounds the scan.
 */
export function sortKeyNullable(
  path: AttributePath,
  type: CompiledResourceType,
  table: ResourceTable = USERS_TABLE,
): boolean {
  const target = resourceScope(type, table)(path);
  if (target.kind === 'column') return target.nullable;
  return target.kind !== 'instant';
}
