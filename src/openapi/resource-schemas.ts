import type { ResourceTypeDescription } from '../core/resource-types.js';
import { ScimConfigError } from '../errors/index.js';
import type { SchemaDefinition } from '../schema/types.js';
import { objectSchema } from './attribute-schema.js';
import { listResponseSchema } from './messages.js';
import type { JsonSchema } from './types.js';

/** The component names of one resource type's schemas. */
export interface ResourceNames {
  /** The resource, as a client sends it. */
  readonly resource: string;
  /** A page of them. */
  readonly list: string;
}

/** Hands out component names (`^[A-Za-z0-9._-]+$`), each once. */
export class ComponentNames {
  private readonly taken = new Set<string>();

  constructor(reserved: readonly string[]) {
    for (const name of reserved) this.taken.add(name.toLowerCase());
  }

  /** A free name built from `wanted`: its allowed characters, with a number when taken. */
  claim(wanted: string): string {
    const base = wanted.replace(/[^A-Za-z0-9._-]/g, '') || 'Schema';
    let name = base;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${base}${n}`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function coreOf(type: ResourceTypeDescription): SchemaDefinition {
  const [core] = type.schemas;
  if (!core)
    throw new ScimConfigError(`openApiDocument: resource type "${type.name}" has no schema.`);
  return core;
}

/**
 * Builds the JSON Schemas of the given resource types into `schemas`: one component per
 * resource (its core attributes, `schemas`, and one property per extension URN), one per
 * extension schema (shared by the resource types that use it), and one ListResponse each.
 * Returns the component names per resource type, in order.
 */
export function addResourceSchemas(
  types: readonly ResourceTypeDescription[],
  names: ComponentNames,
  schemas: Record<string, JsonSchema>,
): ResourceNames[] {
  const extensionNames = new Map<string, string>();
  return types.map((type) => {
    const core = coreOf(type);
    const resource = names.claim(type.name);
    const list = names.claim(`${resource}ListResponse`);
    const body = objectSchema(core.attributes);
    const properties: Record<string, JsonSchema> = {
      schemas: {
        type: 'array',
        items: { type: 'string', enum: type.schemas.map((s) => s.id) },
        minItems: 1,
        description: `The schemas of the resource: "${core.id}" and the extensions it holds.`,
      },
      ...(body.properties as Record<string, JsonSchema>),
    };
    for (const extension of type.schemas.slice(1)) {
      let name = extensionNames.get(extension.id);
      if (name === undefined) {
        name = names.claim(extension.name);
        extensionNames.set(extension.id, name);
        schemas[name] = {
          ...objectSchema(extension.attributes),
          title: extension.name,
          description: `${extension.description} (${extension.id})`,
        };
      }
      properties[extension.id] = ref(name);
    }
    schemas[resource] = {
      type: 'object',
      title: type.name,
      description: `${type.description ?? type.name} (${core.id}).`,
      properties,
      required: ['schemas', ...((body.required as string[] | undefined) ?? [])],
    };
    schemas[list] = listResponseSchema(resourceAsReturned(core, resource), type.name);
    return { resource, list };
  });
}

/**
 * The schema of a resource as the service returns it: the resource, with `schemas` and every
 * attribute returned `always` (such as `id`) present.
 */
export function resourceAsReturned(core: SchemaDefinition, resource: string): JsonSchema {
  const always = core.attributes.filter((a) => a.returned === 'always').map((a) => a.name);
  return { allOf: [ref(resource)], required: ['schemas', ...always] };
}
