import type { AttributePath } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { SCHEMAS_ATTRIBUTE } from '../../schema/schemas-attribute.js';
import type { AttributeDefinition } from '../../schema/types.js';
import type { JsonRef } from './sql-predicates.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/** Where a filter path's values live in the users table. */
export type FilterTarget =
  /**
   * A text column: `id`, `user_name`, `external_id`. `key` names a column that holds the
   * value's `foldCase`: caseless comparisons fold the literal and compare that column exactly.
   */
  | { kind: 'column'; column: string; caseExact: boolean; nullable: boolean; key?: string }
  /** A timestamptz column with the document text it mirrors. */
  | { kind: 'instant'; column: string; doc: JsonRef }
  /** One value in the document. */
  | { kind: 'json'; ref: JsonRef; def: AttributeDefinition }
  /** A multi-valued attribute: any element matching makes the filter match. */
  | { kind: 'multi'; array: string; attribute: AttributeDefinition; sub?: AttributeDefinition };

/** Resolves filter paths in one place of the document: the user, or one complex value. */
export type FilterScope = (path: AttributePath) => FilterTarget;

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

const COLUMNS: Record<
  string,
  { column: string; caseExact: boolean; nullable: boolean; key?: string }
> = {
  id: { column: 'id', caseExact: true, nullable: false },
  userName: { column: 'user_name', caseExact: false, nullable: false, key: 'user_name_key' },
  externalId: { column: 'external_id', caseExact: true, nullable: true },
};
const INSTANTS: Record<string, string> = { created: 'created', lastModified: 'last_modified' };

/**
 * Resolves paths at the top of the user, through the resource type's resolver. Indexed
 * attributes map to their columns (the definitions say whether they compare case-exactly);
 * everything else to the `doc` jsonb.
 */
export const userScope =
  (type: CompiledResourceType): FilterScope =>
  (path) => {
    const resolved = type.resolve(path);
    if (!resolved) {
      throw new UnsupportedFilterError(`Unknown attribute ${path.attribute}`, 'unknown-attribute');
    }
    const { attribute, subAttribute, extension } = resolved;
    if (attribute === SCHEMAS_ATTRIBUTE)
      return { kind: 'multi', array: "doc->'schemas'", attribute };
    const isCore = extension === undefined;
    const base = isCore ? 'doc' : `(doc->${keyLiteral(extension.id)})`;
    if (isCore && !subAttribute) {
      const column = COLUMNS[attribute.name];
      if (column) return { kind: 'column', ...column };
    }
    if (isCore && attribute.name === 'meta' && subAttribute) {
      const column = INSTANTS[subAttribute.name];
      if (column) {
        return {
          kind: 'instant',
          column,
          doc: member(member(base, 'meta').json, subAttribute.name),
        };
      }
    }
    if (attribute.multiValued) {
      const array = member(base, attribute.name).json;
      return subAttribute
        ? { kind: 'multi', array, attribute, sub: subAttribute }
        : { kind: 'multi', array, attribute };
    }
    const top = member(base, attribute.name);
    if (!subAttribute) return { kind: 'json', ref: top, def: attribute };
    return { kind: 'json', ref: member(top.json, subAttribute.name), def: subAttribute };
  };

/**
 * Resolves paths relative to one value of a complex attribute (inside `attr[...]`), through the
 * resource type's resolver, as the core's filter check does.
 */
export function valueScope(
  base: string,
  parent: AttributeDefinition,
  type: CompiledResourceType,
): FilterScope {
  return (path) => {
    const def = type.resolve(path, parent)?.attribute;
    if (!def)
      throw new UnsupportedFilterError(`Unknown sub-attribute ${path.attribute} of ${parent.name}`);
    return { kind: 'json', ref: member(base, def.name), def };
  };
}
