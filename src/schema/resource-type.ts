import type { AttributePath } from './attribute-path.js';
import { compileResourceInput, type CompiledResourceInput } from './compile-resource-input.js';
import { resolveDialectRules, type DialectRuleName, type DialectRules } from './dialect-rules.js';
import { SCHEMAS_ATTRIBUTE } from './schemas-attribute.js';
import type { AttributeDefinition, SchemaDefinition } from './types.js';
import { compileShapes, type ValueShapes } from './value-shape.js';

/** What {@link compileResourceType} compiles: a resource's schemas and the dialect switches. */
export interface ResourceTypeDefinition {
  /** The resource type's name, e.g. `User` (RFC 7643 §6 `name`). */
  readonly name: string;
  /** Its endpoint below the base path, e.g. `/Users`. */
  readonly endpoint: string;
  /** A human-readable description; defaults to the core schema's. */
  readonly description?: string;
  /** The core schema. */
  readonly schema: SchemaDefinition;
  /** The schema extensions, the host's included, in the order `schemas` lists them. */
  readonly extensions?: readonly SchemaDefinition[];
  /** Dialect rules to switch off (`false`); every rule is on unless set to `false`. */
  readonly rules?: Partial<Record<DialectRuleName, boolean>>;
}

/** Where an attribute path leads in a resource type, with canonical definitions. */
export interface ResolvedAttribute {
  /** The extension schema that defines the attribute; `undefined` for the core schema. */
  readonly extension: SchemaDefinition | undefined;
  /** The top-level attribute (or, inside a value filter, the sub-attribute named). */
  readonly attribute: AttributeDefinition;
  /** The sub-attribute, when the path names one. */
  readonly subAttribute: AttributeDefinition | undefined;
}

/**
 * A resource type compiled once (in `createScim`) from its schemas: the one case-insensitive
 * index of its attributes, the one resolver of attribute paths, its dialect rules and the
 * request-body reader. Every handler, engine and store that needs schema knowledge is handed
 * this object; nothing in it is specific to the User.
 *
 * @see RFC 7643 §6, §7; RFC 7644 §3.10
 */
export interface CompiledResourceType {
  /** The resource type's name, e.g. `User`. */
  readonly name: string;
  /** Its endpoint below the base path, e.g. `/Users`. */
  readonly endpoint: string;
  /** Its description, for `/ResourceTypes`. */
  readonly description: string;
  /** The core schema. */
  readonly core: SchemaDefinition;
  /** The schema extensions, in order. */
  readonly extensions: readonly SchemaDefinition[];
  /** The core schema, then the extensions. */
  readonly schemas: readonly SchemaDefinition[];
  /** The dialect switches POST, PUT and PATCH read values with. */
  readonly rules: DialectRules;
  /** The required attributes of every schema, which no write may leave unassigned. */
  readonly required: readonly (readonly [SchemaDefinition, AttributeDefinition])[];
  /** The multi-valued attributes of every schema, whose value counts a write is held to. */
  readonly multiValued: readonly (readonly [SchemaDefinition, AttributeDefinition])[];
  /** The request-body reader of POST and PUT, compiled on first use. */
  readonly input: CompiledResourceInput;
  /**
   * The value rules of every attribute and sub-attribute, compiled on first use, for an engine
   * that reads one attribute's value at a time (PATCH). The same rules as {@link input}'s.
   */
  readonly shapes: ValueShapes;
  /** Finds a schema of the resource type (the core schema included) by URN, in any case. */
  schema(urn: string): SchemaDefinition | undefined;
  /** Finds an extension whose URN is the whole `text` (a path naming the extension), in any case. */
  extensionNamed(text: string): SchemaDefinition | undefined;
  /** Finds an attribute of one of the schemas by name, in any case. */
  attribute(schema: SchemaDefinition, name: string): AttributeDefinition | undefined;
  /** Finds a sub-attribute of a complex attribute by name, in any case. */
  subAttribute(parent: AttributeDefinition, name: string): AttributeDefinition | undefined;
  /**
   * Resolves an attribute path: a path without a URN names a core attribute (or the common
   * `schemas` attribute, `SCHEMAS_ATTRIBUTE`), a URN picks the schema. With `parent`, the path
   * is relative to one value of that complex attribute (inside `emails[...]`) and names one of
   * its sub-attributes. Returns `undefined` when the path names nothing.
   *
   * @see RFC 7644 §3.10
   */
  resolve(path: AttributePath, parent?: AttributeDefinition): ResolvedAttribute | undefined;
  /**
   * Returns the `schemas` list of a resource: the core schema's URN, then the URN of each
   * extension the resource holds values of, in the order of {@link CompiledResourceType.extensions}
   * (RFC 7643 §3: `schemas` lists the extensions used).
   */
  schemasOf(resource: Readonly<Record<string, unknown>>): readonly string[];
}

function byName(
  list: readonly AttributeDefinition[] | undefined,
): Map<string, AttributeDefinition> {
  const map = new Map<string, AttributeDefinition>();
  for (const a of list ?? []) map.set(a.name.toLowerCase(), a);
  return map;
}

/** A lookup in a lower-cased index. */
function lookup<T>(map: ReadonlyMap<string, T> | undefined, name: string): T | undefined {
  return map?.get(name.toLowerCase());
}

/**
 * Compiles a resource type once: the index of its attributes (maps, not scans), its resolver,
 * its dialect rules. Nothing here knows the User; Groups and host-defined resource types
 * compile the same way.
 *
 * @example
 * ```ts
 * const users = compileResourceType({
 *   name: 'User',
 *   endpoint: '/Users',
 *   schema: userSchema,
 *   extensions: [enterpriseUserSchema, accountSchema],
 * });
 * compileFilter(parseFilter('userName eq "bjensen"'), users);
 * ```
 */
export function compileResourceType(definition: ResourceTypeDefinition): CompiledResourceType {
  const core = definition.schema;
  const extensions = Object.freeze([...(definition.extensions ?? [])]);
  const schemas = Object.freeze([core, ...extensions]);
  const rules = resolveDialectRules(definition.rules);
  const byUrn = new Map(schemas.map((s) => [s.id.toLowerCase(), s]));
  const attributes = new Map(schemas.map((s) => [s, byName(s.attributes)]));
  const subAttributes = new Map<AttributeDefinition, Map<string, AttributeDefinition>>();
  for (const s of schemas) {
    for (const a of s.attributes)
      if (a.subAttributes) subAttributes.set(a, byName(a.subAttributes));
  }
  const required = Object.freeze(
    schemas.flatMap((s) => s.attributes.filter((a) => a.required).map((a) => [s, a] as const)),
  );
  const multiValued = Object.freeze(
    schemas.flatMap((s) => s.attributes.filter((a) => a.multiValued).map((a) => [s, a] as const)),
  );
  // The list of most resources, which hold no extension: one frozen array for all of them.
  const coreOnly = Object.freeze([core.id]);
  let input: CompiledResourceInput | undefined;
  let shapes: ValueShapes | undefined;
  const type: CompiledResourceType = {
    name: definition.name,
    endpoint: definition.endpoint,
    description: definition.description ?? core.description,
    core,
    extensions,
    schemas,
    rules,
    required,
    multiValued,
    get input() {
      return (input ??= compileResourceInput(schemas, rules));
    },
    get shapes() {
      return (shapes ??= compileShapes(schemas, rules));
    },
    schema: (urn) => lookup(byUrn, urn),
    extensionNamed(text) {
      const schema = lookup(byUrn, text.trim());
      return schema === core ? undefined : schema;
    },
    attribute: (schema, name) => lookup(attributes.get(schema), name),
    subAttribute: (parent, name) => lookup(subAttributes.get(parent), name),
    resolve(path, parent) {
      if (parent !== undefined) {
        if (path.schema !== undefined || path.subAttribute !== undefined) return undefined;
        const attribute = lookup(subAttributes.get(parent), path.attribute);
        return attribute && { extension: undefined, attribute, subAttribute: undefined };
      }
      let schema = core;
      if (path.schema === undefined) {
        if (path.subAttribute === undefined && path.attribute.toLowerCase() === 'schemas') {
          return { extension: undefined, attribute: SCHEMAS_ATTRIBUTE, subAttribute: undefined };
        }
      } else {
        const found = lookup(byUrn, path.schema);
        if (!found) return undefined;
        schema = found;
      }
      const attribute = lookup(attributes.get(schema), path.attribute);
      if (!attribute) return undefined;
      const extension = schema === core ? undefined : schema;
      if (path.subAttribute === undefined) return { extension, attribute, subAttribute: undefined };
      const subAttribute = lookup(subAttributes.get(attribute), path.subAttribute);
      return subAttribute && { extension, attribute, subAttribute };
    },
    schemasOf(resource) {
      let list: string[] | undefined;
      for (const e of extensions) if (resource[e.id] !== undefined) (list ??= [core.id]).push(e.id);
      return list === undefined ? coreOnly : Object.freeze(list);
    },
  };
  return Object.freeze(type);
}
