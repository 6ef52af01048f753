import type { AttributePath } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { SCHEMAS_ATTRIBUTE } from '../../schema/schemas-attribute.js';
import type { AttributeDefinition } from '../../schema/types.js';
import { asArray, type JsonRef } from './sql-predicates.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/**
 * The values of a multi-valued attribute, each one a row `alias` of a FROM item: the elements
 * of a jsonb array in the document, or the rows of a table of their own (a group's members).
 */
export interface Elements {
  /** The FROM item that lists the values as `alias`, and what ties them to the resource row. */
  source(alias: string): { readonly from: string; readonly on?: string };
  /** The value itself (a multi-valued simple attribute). */
  self(alias: string): JsonRef;
  /** One sub-attribute of a value (a multi-valued complex attribute). */
  member(alias: string, name: string): JsonRef;
  /**
   * The whole attribute as one jsonb value beside its folded copy, when the document holds it
   * (`pr` and `sortBy` read it).
   */
  readonly whole?: FoldedRef;
}

/** Where a filter path's values live in the resource's table. */
export type FilterTarget =
  /**
   * A text column: `id`, `user_name`, `external_id`, `display_name`. `key` names a column that
   * holds the value's `foldCase`: caseless comparisons fold the literal and compare that column
   * exactly.
   */
  | { kind: 'column'; column: string; caseExact: boolean; nullable: boolean; key?: string }
  /** A timestamptz column with the document text it mirrors. */
  | { kind: 'instant'; column: string; doc: JsonRef }
  /** One value in the document. */
  | { kind: 'json'; ref: JsonRef; def: AttributeDefinition }
  /** A multi-valued attribute: any element matching makes the filter match. */
  | {
      kind: 'multi';
      elements: Elements;
      attribute: AttributeDefinition;
      sub?: AttributeDefinition;
    };

/** Resolves filter paths in one place of the document: the resource, or one complex value. */
export type FilterScope = (path: AttributePath) => FilterTarget;

/** A text column that holds a top-level attribute (see {@link FilterTarget}). */
export interface ColumnSpec {
  readonly column: string;
  readonly nullable: boolean;
  /** The column of the value's `foldCase`, for an attribute that is not `caseExact`. */
  readonly key?: string;
}

/**
 * How one resource type's table holds its attributes: indexed columns, timestamp columns for
 * `meta.created` / `meta.lastModified`, the document `doc` for everything else, and
 * multi-valued attributes kept in rows of their own (a group's `members`).
 */
export interface ResourceTable {
  /** Top-level core attributes held in a text column, by attribute name. */
  readonly columns: Readonly<Record<string, ColumnSpec>>;
  /** Multi-valued core attributes held in a table of their own, by attribute name. */
  readonly rows?: Readonly<Record<string, Elements>>;
}

/** Puts a name from scimkit's schema definitions in SQL as a literal (never client text). */
export function keyLiteral(name: string): string {
  if (!/^[A-Za-z0-9$:._-]+$/.test(name)) throw new UnsupportedFilterError(`Bad key ${name}`);
  return `'${name}'`;
}

/** Builds the reference to a member of a jsonb object. */
export function member(base: string, name: string): JsonRef {
  const key = keyLiteral(name);
  return { json: `${base}->${key}`, text: `${base}->>${key}` };
}

/** A value of the document together with the same value in its folded copy. */
export type FoldedRef = JsonRef & { readonly folded: JsonRef };

/** A jsonb value that is not a member of another: a whole array element, a whole document. */
const whole = (json: string): JsonRef => ({ json, text: `${json} #>> '{}'` });

/** The stored document and its folded copy (`foldedJson`), in the resource's row. */
export const DOCUMENT: FoldedRef = { ...whole('doc'), folded: whole('folded') };

/** Builds the reference to a member of a document value and of its folded copy. */
export function documentMember(base: FoldedRef, name: string): FoldedRef {
  return { ...member(base.json, name), folded: member(base.folded.json, name) };
}

/**
 * Lists the elements of a jsonb array of the document as rows `alias(v, f)`: each element
 * `v` beside the same element `f` of the folded copy (the two have one shape); with `ordinal`,
 * `alias(v, f, n)` and `n` the element's position from 1.
 */
export function zippedElements(array: FoldedRef, alias: string, ordinal = false): string {
  const elements = (json: string) => `jsonb_array_elements(${asArray(json)})`;
  const rows = `ROWS FROM (${elements(array.json)}, ${elements(array.folded.json)})`;
  return ordinal ? `${rows} WITH ORDINALITY AS ${alias}(v, f, n)` : `${rows} AS ${alias}(v, f)`;
}

/** One element of {@link zippedElements} with its folded copy. */
export const zippedElement = (alias: string): FoldedRef => ({
  ...whole(`${alias}.v`),
  folded: whole(`${alias}.f`),
});

/** The elements of a jsonb array of the document, each beside its folded copy. */
export function jsonElements(array: FoldedRef): Elements {
  return {
    source: (alias) => ({ from: zippedElements(array, alias) }),
    self: zippedElement,
    member: (alias, name) => documentMember(zippedElement(alias), name),
    whole: array,
  };
}

/** The users table: `id`, `userName` (by its key column) and `externalId` are columns. */
export const USERS_TABLE: ResourceTable = {
  columns: {
    id: { column: 'id', nullable: false },
    userName: { column: 'user_name', nullable: false, key: 'user_name_key' },
    externalId: { column: 'external_id', nullable: true },
  },
};

const INSTANTS: Record<string, string> = { created: 'created', lastModified: 'last_modified' };

/**
 * Resolves paths at the top of a resource, through the resource type's resolver. Attributes
 * `table` holds in columns or rows map to them (the definitions say whether they compare
 * case-exactly); everything else to the `doc` jsonb, beside its folded copy `folded`. Columns are named without a table alias:
 * the statement reads the resource's table alone at the level of the condition.
 */
export const resourceScope =
  (type: CompiledResourceType, table: ResourceTable = USERS_TABLE): FilterScope =>
  (path) => {
    const resolved = type.resolve(path);
    if (!resolved) {
      throw new UnsupportedFilterError(`Unknown attribute ${path.attribute}`, 'unknown-attribute');
    }
    const { attribute, subAttribute, extension } = resolved;
    const base = extension === undefined ? DOCUMENT : documentMember(DOCUMENT, extension.id);
    const top = (name: string) => documentMember(base, name);
    if (attribute === SCHEMAS_ATTRIBUTE)
      return { kind: 'multi', elements: jsonElements(top('schemas')), attribute };
    const isCore = extension === undefined;
    if (isCore && !subAttribute) {
      const column = table.columns[attribute.name];
      if (column) {
        // Case-exactness as the schema says: a key column serves caseless comparisons only.
        const { column: name, nullable, key } = column;
        const caseExact = attribute.caseExact === true;
        return caseExact || key === undefined
          ? { kind: 'column', column: name, nullable, caseExact }
          : { kind: 'column', column: name, nullable, caseExact, key };
      }
    }
    if (isCore && attribute.name === 'meta' && subAttribute) {
      const column = INSTANTS[subAttribute.name];
      if (column) {
        return { kind: 'instant', column, doc: member(top('meta').json, subAttribute.name) };
      }
    }
    if (attribute.multiValued) {
      const rows = isCore ? table.rows?.[attribute.name] : undefined;
      const elements = rows ?? jsonElements(top(attribute.name));
      return subAttribute
        ? { kind: 'multi', elements, attribute, sub: subAttribute }
        : { kind: 'multi', elements, attribute };
    }
    const ref = top(attribute.name);
    if (!subAttribute) return { kind: 'json', ref, def: attribute };
    const sub = documentMember(ref, subAttribute.name);
    return { kind: 'json', ref: sub, def: subAttribute };
  };

/**
 * Resolves paths relative to one value of a complex attribute (inside `attr[...]`), through the
 * resource type's resolver, as the core's filter check does; `valueOf` gives a sub-attribute's
 * value by name.
 */
export function valueScope(
  valueOf: (name: string) => JsonRef,
  parent: AttributeDefinition,
  type: CompiledResourceType,
): FilterScope {
  return (path) => {
    const def = type.resolve(path, parent)?.attribute;
    if (!def)
      throw new UnsupportedFilterError(`Unknown sub-attribute ${path.attribute} of ${parent.name}`);
    return { kind: 'json', ref: valueOf(def.name), def };
  };
}
