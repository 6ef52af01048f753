import type { CompareOperator, Filter, FilterValue } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { AttributeDefinition } from '../../schema/types.js';
import type { GroupsPart } from '../user-group-paths.js';
import type { SqlParams } from './sql-params.js';
import { compareString, type JsonRef } from './sql-predicates.js';
import type { TableNames } from './table-names.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/** What a filter on the User's `groups` needs: the membership tables and the tenant. */
export interface GroupsFilterContext {
  /** The store's tables (`groups`, `group_members`). */
  readonly tables: TableNames;
  /** The tenant whose memberships count. */
  readonly tenant: string;
}

/** A group's displayName, beside its folding (`display_name_key`), and its id. */
const DISPLAY: JsonRef = {
  json: 'to_jsonb(g.display_name)',
  text: 'g.display_name',
  folded: { json: 'to_jsonb(g.display_name_key)', text: 'g.display_name_key' },
};
const ID: JsonRef = { json: 'to_jsonb(g.id)', text: 'g.id' };

const unsupported = (what: string): never => {
  throw new UnsupportedFilterError(`The PostgreSQL user store cannot filter by ${what}.`);
};

/**
 * Compiles filters on the User's computed `groups` into conditions on the users table: a
 * user's groups are the groups that hold it directly or through nested groups, found from the
 * membership table by a recursive query that starts at the groups matching the condition (the
 * primary key for `groups.value eq`), never at each user. `value` and `display` (by its
 * folded key) support every operator; `type` and `$ref` are not supported.
 *
 * @internal
 */
export class GroupsFilterSql {
  #tenant: string | undefined;

  constructor(
    private readonly params: SqlParams,
    private readonly type: CompiledResourceType,
    private readonly context: GroupsFilterContext | undefined,
  ) {}

  /** `groups pr`, `groups.value pr`, ...: the user is in some group. */
  present(part: GroupsPart): string {
    this.#check(part);
    return this.#inAnyGroup();
  }

  /** A comparison on `groups` (its `value`) or a sub-attribute, true when any group matches. */
  compare(part: GroupsPart, op: CompareOperator, value: FilterValue): string {
    this.#check(part);
    if (value === null) {
      // `eq null` asks for no value at all, as for any attribute.
      if (op === 'eq') return `(NOT ${this.#inAnyGroup()})`;
      return op === 'ne' ? this.#inAnyGroup() : 'FALSE';
    }
    if (op === 'ne') {
      // As the evaluator: true unless the user has groups and every one equals the literal.
      const other = this.#memberOf(`NOT ${this.#groupCompare(part, 'eq', value)}`);
      return `(NOT ${this.#inAnyGroup()} OR ${other})`;
    }
    return this.#memberOf(this.#groupCompare(part, op, value));
  }

  /** `groups[...]`: some group of the user matches the inner filter. */
  valuePath(inner: Filter, groups: AttributeDefinition): string {
    return this.#memberOf(this.#groupCondition(inner, groups));
  }

  // The inner filter of `groups[...]` as a condition on one group row `g`.
  #groupCondition(filter: Filter, groups: AttributeDefinition): string {
    switch (filter.kind) {
      case 'and':
      case 'or':
        return `(${this.#groupCondition(filter.left, groups)} ${filter.kind.toUpperCase()} ${this.#groupCondition(filter.right, groups)})`;
      case 'not':
        return `(NOT ${this.#groupCondition(filter.filter, groups)})`;
      case 'valuePath':
        return unsupported('a value filter inside groups[...]');
      default: {
        const part = this.type.resolve(filter.path, groups)?.attribute.name as GroupsPart;
        this.#check(part);
        // `value` and `display` are always there: `pr` holds, `eq null` does not.
        if (filter.kind === 'present') return 'TRUE';
        if (filter.value === null) return filter.op === 'ne' ? 'TRUE' : 'FALSE';
        if (filter.op === 'ne') return `(NOT ${this.#groupCompare(part, 'eq', filter.value)})`;
        return this.#groupCompare(part, filter.op, filter.value);
      }
    }
  }

  // One comparison on the group row `g`: `value` is its id, `display` its displayName.
  #groupCompare(
    part: GroupsPart,
    op: Exclude<CompareOperator, 'ne'>,
    value: string | number | boolean,
  ): string {
    // A non-string literal never equals a string attribute.
    if (typeof value !== 'string') return 'FALSE';
    const definition = this.#subAttribute(part === 'groups' ? 'value' : part);
    const ref = part === 'display' ? DISPLAY : ID;
    return compareString(ref, definition.caseExact, op, value, this.params);
  }

  #subAttribute(name: string): AttributeDefinition {
    const found = this.type.resolve({ attribute: 'groups', subAttribute: name });
    return found?.subAttribute ?? unsupported(`groups.${name}`);
  }

  #check(part: GroupsPart | undefined): asserts part is GroupsPart {
    if (part === undefined) unsupported('an unknown sub-attribute of groups');
    if (part === 'type' || part === '$ref') unsupported(`groups.${part}`);
    if (!this.context) unsupported('groups without the membership tables');
  }

  #tenantParam(): string {
    this.#tenant ??= this.params.add(this.context?.tenant);
    return this.#tenant;
  }

  #inAnyGroup(): string {
    const t = this.#tables();
    return `id IN (SELECT gm.member_id FROM ${t.groupMembers} AS gm WHERE gm.tenant = ${this.#tenantParam()})`;
  }

  // The users in a group matching `condition` (on `g`), directly or through nested groups.
  #memberOf(condition: string): string {
    if (condition === 'FALSE') return 'FALSE';
    const t = this.#tables();
    const tenant = this.#tenantParam();
    return `id IN (WITH RECURSIVE d(member_id) AS (
        SELECT gm.member_id FROM ${t.groups} AS g
        JOIN ${t.groupMembers} AS gm ON gm.tenant = g.tenant AND gm.group_id = g.id
        WHERE g.tenant = ${tenant} AND ${condition}
        UNION
        SELECT gm.member_id FROM ${t.groupMembers} AS gm
        JOIN d ON gm.tenant = ${tenant} AND gm.group_id = d.member_id
      ) SELECT member_id FROM d)`;
  }

  #tables(): TableNames {
    return (this.context ?? unsupported('groups without the membership tables')).tables;
  }
}
