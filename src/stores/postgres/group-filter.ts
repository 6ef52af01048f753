import type { AttributePath, CompareOperator, Filter } from '../../filter/ast.js';
import { foldCase } from '../../schema/fold-case.js';
import { SqlParams } from './sql-params.js';
import { orderingOperator, toInstant } from './sql-predicates.js';
import type { TableNames } from './table-names.js';
import { UnsupportedFilterError } from './unsupported-filter.js';
import { GROUP_SCHEMA } from '../../schema/urns.js';

/** A group filter as SQL over the groups table aliased `grp`, with its parameters. */
export interface CompiledGroupFilter {
  readonly sql: string;
  readonly params: unknown[];
}

const lower = (text: string) => text.toLowerCase();

/** The path's attribute and sub-attribute in lower case, when it is in the Group schema. */
function groupPath(path: AttributePath): [string, string | undefined] {
  if (path.schema !== undefined && lower(path.schema) !== lower(GROUP_SCHEMA))
    throw new UnsupportedFilterError(`Groups cannot be filtered by ${path.schema}.`);
  return [lower(path.attribute), path.subAttribute && lower(path.subAttribute)];
}

function unsupported(what: string): never {
  throw new UnsupportedFilterError(`The PostgreSQL group store cannot filter by ${what}.`);
}

/**
 * Compiles a group filter into SQL: `id`, `externalId`, `displayName` (by its folded key) and
 * `meta.version` equality, `meta.created`/`meta.lastModified` comparisons, and "has member"
 * (`members[value eq "x"]`, `members.value eq "x"`) through the membership table, combined
 * with `and`, `or` and `not`. Anything else throws `UnsupportedFilterError`, which the store's
 * `supportsFilter` turns into the core's precise 400.
 *
 * @internal
 */
export function compileGroupFilter(
  filter: Filter,
  first: number,
  tables: TableNames,
): CompiledGroupFilter {
  const params = new SqlParams(first);
  const sql = compileNode(filter, params, tables);
  return { sql, params: params.values };
}

function compileNode(filter: Filter, params: SqlParams, t: TableNames): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${compileNode(filter.left, params, t)} ${filter.kind.toUpperCase()} ${compileNode(filter.right, params, t)})`;
    case 'not':
      return `NOT (${compileNode(filter.filter, params, t)})`;
    case 'present':
      return unsupported('"pr"');
    case 'valuePath': {
      const [attribute, sub] = groupPath(filter.path);
      const inner = filter.filter;
      if (
        attribute !== 'members' ||
        sub !== undefined ||
        inner.kind !== 'compare' ||
        inner.path.schema !== undefined ||
        inner.path.subAttribute !== undefined ||
        lower(inner.path.attribute) !== 'value'
      )
        return unsupported('this value filter');
      return hasMember(inner.op, inner.value, params, t);
    }
    case 'compare': {
      const [attribute, sub] = groupPath(filter.path);
      const { op, value } = filter;
      if (attribute === 'members' && sub === 'value') return hasMember(op, value, params, t);
      if (typeof value !== 'string') return unsupported(`a ${typeof value} value`);
      if (sub === undefined) {
        if (op !== 'eq') return unsupported(`"${op}" on ${attribute}`);
        if (attribute === 'id') return `grp.id = ${params.add(value)}`;
        if (attribute === 'externalid')
          return `COALESCE(grp.external_id = ${params.add(value)}, false)`;
        if (attribute === 'displayname')
          return `grp.display_name_key = ${params.add(foldCase(value))}`;
        return unsupported(attribute);
      }
      if (attribute !== 'meta') return unsupported(`${attribute}.${sub}`);
      if (sub === 'version') {
        if (op !== 'eq') return unsupported(`"${op}" on meta.version`);
        return `grp.version = ${params.add(value)}`;
      }
      if (sub === 'created' || sub === 'lastmodified')
        return compareInstant(sub === 'created' ? 'created' : 'last_modified', op, value, params);
      return unsupported(`meta.${sub}`);
    }
  }
}

function compareInstant(
  column: string,
  op: CompareOperator,
  value: string,
  params: SqlParams,
): string {
  const instant = toInstant(value);
  if (instant === undefined) return unsupported(`a dateTime that is not one ("${value}")`);
  const sqlOp = op === 'eq' ? '=' : orderingOperator(op);
  if (sqlOp === undefined) return unsupported(`"${op}" on a dateTime`);
  return `grp.${column} ${sqlOp} ${params.add(instant)}::timestamptz`;
}

function hasMember(op: CompareOperator, value: unknown, params: SqlParams, t: TableNames): string {
  if (op !== 'eq' || typeof value !== 'string') return unsupported(`"${op}" on members.value`);
  return `EXISTS (SELECT 1 FROM ${t.groupMembers} AS gm
    WHERE gm.tenant = grp.tenant AND gm.group_id = grp.id AND gm.member_id = ${params.add(value)})`;
}
