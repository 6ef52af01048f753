import type { CompareOperator, Filter, FilterValue } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { AttributeDefinition } from '../../schema/types.js';
import { userResourceType } from '../../schema/user-resource-type.js';
import {
  documentMember,
  member,
  resourceScope,
  USERS_TABLE,
  valueScope,
  type FilterScope,
  type FilterTarget,
  type ResourceTable,
} from './filter-targets.js';
import { groupsAttribute, groupsPart } from '../user-group-paths.js';
import { GroupsFilterSql, type GroupsFilterContext } from './groups-filter-sql.js';
import { SqlParams } from './sql-params.js';
import { foldCase } from '../../schema/fold-case.js';
import {
  compareString,
  compareText,
  comparedText,
  jsonAssigned,
  jsonPresent,
  orderingOperator,
  toInstant,
  type JsonRef,
} from './sql-predicates.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/** A filter as a SQL condition on a resource's table and the parameters it refers to. */
export interface CompiledSqlFilter {
  /** A boolean SQL expression that is never NULL; values appear only as `$n`. */
  readonly sql: string;
  /** The values of `$n` parameters, in order from `firstParam`. */
  readonly params: readonly unknown[];
}

type PositiveOp = Exclude<CompareOperator, 'ne'>;

type ColumnTarget = Extract<FilterTarget, { kind: 'column' }>;

/** A text column as a value reference, beside the column of its folding when it has one. */
function columnRef(target: ColumnTarget): JsonRef {
  const json = `to_jsonb(${target.column})`;
  if (target.key === undefined) return { json, text: target.column };
  return {
    json,
    text: target.column,
    folded: { json: `to_jsonb(${target.key})`, text: target.key },
  };
}
type MultiTarget = Extract<FilterTarget, { kind: 'multi' }>;

function sameColumn(a: ColumnTarget, b: ColumnTarget): boolean {
  return a.column === b.column && a.key === b.key && a.caseExact === b.caseExact;
}

class FilterCompiler {
  private aliases = 0;
  private readonly groups: GroupsFilterSql;

  constructor(
    private readonly params: SqlParams,
    private readonly type: CompiledResourceType,
    groups: GroupsFilterContext | undefined,
  ) {
    this.groups = new GroupsFilterSql(params, type, groups);
  }

  compile(filter: Filter, scope: FilterScope): string {
    switch (filter.kind) {
      case 'or':
        return this.equalsAny(filter, scope) ?? this.junction(filter, scope);
      case 'and':
        return this.junction(filter, scope);
      case 'not':
        return `(NOT ${this.compile(filter.filter, scope)})`;
      case 'present': {
        // The User's `groups` is computed from memberships, not kept in the document.
        const part = groupsPart(filter.path, this.type);
        return part ? this.groups.present(part) : this.present(scope(filter.path));
      }
      case 'compare': {
        const part = groupsPart(filter.path, this.type);
        return part
          ? this.groups.compare(part, filter.op, filter.value)
          : this.compare(scope(filter.path), filter.op, filter.value);
      }
      case 'valuePath': {
        const groups = groupsAttribute(filter.path, this.type);
        if (groups && filter.path.subAttribute === undefined)
          return this.groups.valuePath(filter.filter, groups);
        const target = scope(filter.path);
        if (target.kind === 'multi' && !target.sub && target.attribute.type === 'complex') {
          return this.anyElement(target, (e) => {
            const valueOf = (name: string) => target.elements.member(e, name);
            return this.compile(filter.filter, valueScope(valueOf, target.attribute, this.type));
          });
        }
        if (target.kind === 'json' && target.def.type === 'complex') {
          const { ref } = target;
          const valueOf = (name: string) =>
            ref.folded
              ? documentMember({ ...ref, folded: ref.folded }, name)
              : member(ref.json, name);
          return this.compile(filter.filter, valueScope(valueOf, target.def, this.type));
        }
        throw new UnsupportedFilterError(`${filter.path.attribute}[...] needs a complex attribute`);
      }
    }
  }

  private junction(filter: Extract<Filter, { kind: 'and' | 'or' }>, scope: FilterScope): string {
    return `(${this.compile(filter.left, scope)} ${filter.kind.toUpperCase()} ${this.compile(filter.right, scope)})`;
  }

  /**
   * `a eq "x" or a eq "y" or …` on one indexed column as `a = ANY($n)`, or `undefined` for any
   * other disjunction. The same rows either way; but an OR of many terms is planned afresh for
   * each size and probes the index once per term for the count and again for the page, where
   * the array is one parameter of one statement text (a page of ids read at once, as the
   * welcome email's check of which invited users still exist).
   */
  private equalsAny(filter: Filter, scope: FilterScope): string | undefined {
    let column: ColumnTarget | undefined;
    const values: string[] = [];
    const add = (term: Filter): boolean => {
      if (term.kind === 'or') return add(term.left) && add(term.right);
      if (term.kind !== 'compare' || term.op !== 'eq' || typeof term.value !== 'string')
        return false;
      if (groupsPart(term.path, this.type)) return false;
      const target = scope(term.path);
      if (target.kind !== 'column') return false;
      if (column && !sameColumn(column, target)) return false;
      column = target;
      values.push(target.caseExact ? term.value : foldCase(term.value));
      return true;
    };
    if (!add(filter) || column === undefined) return undefined;
    const text = comparedText(columnRef(column), column.caseExact);
    const sql = `${text} = ANY(${this.params.add(values)}::text[])`;
    return column.nullable ? `(${sql} AND ${column.column} IS NOT NULL)` : sql;
  }

  /** True when some element of a multi-valued attribute satisfies `where` (given its alias). */
  private anyElement(target: MultiTarget, where: (element: string) => string): string {
    const alias = `e${++this.aliases}`;
    const { from, on } = target.elements.source(alias);
    const condition = on === undefined ? where(alias) : `${on} AND ${where(alias)}`;
    return `EXISTS (SELECT 1 FROM ${from} WHERE ${condition})`;
  }

  /** The value of one element that a comparison on a multi-valued attribute looks at. */
  private elementValue(
    element: string,
    target: MultiTarget,
  ): { ref: JsonRef; def: AttributeDefinition } {
    const def =
      target.sub ??
      (target.attribute.type === 'complex'
        ? target.attribute.subAttributes?.find((s) => s.name === 'value')
        : target.attribute);
    if (!def) throw new UnsupportedFilterError(`${target.attribute.name} has no value to compare`);
    const ref =
      def === target.attribute
        ? target.elements.self(element)
        : target.elements.member(element, def.name);
    return { ref, def };
  }

  private present(target: FilterTarget): string {
    switch (target.kind) {
      case 'column':
        return target.nullable
          ? `COALESCE(${target.column} <> '', false)`
          : `${target.column} <> ''`;
      case 'instant':
        return 'TRUE';
      case 'json':
        return jsonPresent(target.ref);
      case 'multi': {
        if (target.sub) {
          return this.anyElement(target, (v) => jsonPresent(this.elementValue(v, target).ref));
        }
        const { whole } = target.elements;
        // Values kept as rows of their own (a group's members) each have a present `value`.
        return whole ? jsonPresent(whole) : this.anyElement(target, () => 'TRUE');
      }
    }
  }

  private compare(target: FilterTarget, op: CompareOperator, value: FilterValue): string {
    if (value === null) {
      // `attr eq null` asks for an absent value (RFC 7644 §3.4.2.2 treats null as unassigned).
      if (op === 'eq') return `(NOT ${this.present(target)})`;
      if (op === 'ne') return this.present(target);
      return 'FALSE';
    }
    if (op === 'ne') {
      if (target.kind !== 'multi') return `(NOT ${this.compare(target, 'eq', value)})`;
      // As the evaluator: true unless the attribute has values and every one equals the literal.
      const assigned = (v: string) => jsonAssigned(this.elementValue(v, target).ref);
      const equal = (v: string) => {
        const { ref, def } = this.elementValue(v, target);
        return this.scalar(ref, def, 'eq', value);
      };
      return `(NOT ${this.anyElement(target, assigned)} OR ${this.anyElement(target, (v) => `${assigned(v)} AND NOT ${equal(v)}`)})`;
    }
    switch (target.kind) {
      case 'column': {
        if (typeof value !== 'string') return 'FALSE';
        const sql = compareString(columnRef(target), target.caseExact, op, value, this.params);
        // Two-valued without hiding the indexable comparison from the planner.
        return target.nullable ? `(${sql} AND ${target.column} IS NOT NULL)` : sql;
      }
      case 'instant': {
        if (typeof value !== 'string') return 'FALSE';
        if (op === 'co' || op === 'sw' || op === 'ew') {
          return `COALESCE(${compareText(target.doc.text, op, value, this.params)}, false)`;
        }
        const instant = toInstant(value);
        if (instant === undefined) return 'FALSE';
        return `${target.column} ${orderingOperator(op) ?? '='} ${this.params.add(instant)}::timestamptz`;
      }
      case 'json':
        return this.scalar(target.ref, target.def, op, value);
      case 'multi':
        return this.anyElement(target, (v) => {
          const { ref, def } = this.elementValue(v, target);
          return this.scalar(ref, def, op, value);
        });
    }
  }

  /** Compares one jsonb value with a literal by the attribute's type. */
  private scalar(
    ref: JsonRef,
    def: AttributeDefinition,
    op: PositiveOp,
    value: string | number | boolean,
  ): string {
    const ordering = orderingOperator(op);
    switch (def.type) {
      case 'complex':
        throw new UnsupportedFilterError(
          `${def.name} is complex: compare one of its sub-attributes`,
        );
      case 'boolean':
        if (op !== 'eq' || typeof value !== 'boolean') return 'FALSE';
        return `COALESCE(${ref.json} = to_jsonb(${this.params.add(value)}::boolean), false)`;
      case 'integer':
      case 'decimal': {
        if (typeof value !== 'number' || (op !== 'eq' && !ordering)) return 'FALSE';
        const cmp = `(${ref.text})::numeric ${ordering ?? '='} ${this.params.add(value)}::numeric`;
        return `COALESCE(CASE WHEN jsonb_typeof(${ref.json}) = 'number' THEN ${cmp} END, false)`;
      }
      case 'dateTime':
        if (typeof value === 'string' && (op === 'eq' || ordering)) {
          const instant = toInstant(value);
          if (instant === undefined) return 'FALSE';
          const cmp = `(${ref.text})::timestamptz ${ordering ?? '='} ${this.params.add(instant)}::timestamptz`;
          return `COALESCE(CASE WHEN jsonb_typeof(${ref.json}) = 'string' THEN ${cmp} END, false)`;
        }
        break;
    }
    if (typeof value !== 'string') return 'FALSE';
    const sql = compareString(ref, def.caseExact, op, value, this.params);
    return ref.column ? sql : `COALESCE(${sql}, false)`;
  }
}

/**
 * Compiles a filter to a parameterised SQL condition on a resource's table (default the users
 * table; `table` says which attributes have columns of their own): `id`, `userName` and
 * `externalId` on their indexed columns (`userName` as `user_name_key = $n`, the literal
 * folded by `userNameKey`; a group's `displayName` likewise by `display_name_key`),
 * `meta.created` and `meta.lastModified` on timestamp columns, a multi-valued attribute kept
 * in rows of its own (a group's `members`) on those rows, everything else on the stored
 * document, case-insensitively where the schema says `caseExact: false`. Paths resolve through
 * the resource type `type` (default: `userResourceType()`, compiled per call; pass one compiled
 * once). Values only ever travel as parameters, numbered from `firstParam`. A filter on the
 * User's computed `groups` (`groups.value eq "g"`, `groups[display eq "Staff"]`, ...) reads
 * the membership tables of `groups` for its tenant (nested groups included); without `groups`
 * it is unsupported.
 *
 * @throws UnsupportedFilterError for a path the type's schemas do not define, a comparison
 * on a complex attribute, `groups.type` / `groups.$ref`, or a sub-attribute rows do not keep
 * (a member's `$ref`).
 * @see RFC 7644 §3.4.2.2
 * @example
 * ```ts
 * const { sql, params } = compileSqlFilter(filter, 4);
 * await executor.query(`SELECT doc FROM users WHERE tenant = $1 AND ${sql}`, [tenant, ...params]);
 * ```
 */
export function compileSqlFilter(
  filter: Filter,
  firstParam = 1,
  type: CompiledResourceType = userResourceType(),
  groups?: GroupsFilterContext,
  table: ResourceTable = USERS_TABLE,
): CompiledSqlFilter {
  const params = new SqlParams(firstParam);
  const sql = new FilterCompiler(params, type, groups).compile(filter, resourceScope(type, table));
  return { sql, params: params.values };
}
