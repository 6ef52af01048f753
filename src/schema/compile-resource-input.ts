import type { SchemaDefinition } from './types.js';
import { resolveDialectRules } from './dialect-rules.js';
import type { ValueRules } from './value-rules.js';
import { membersOf, objectShape, type ObjectShape } from './value-shape.js';

/** A resource's schemas compiled, once, for POST and PUT bodies. */
export interface CompiledResourceInput {
  /** The core schema (the first of the list). */
  readonly core: SchemaDefinition;
  /** Every schema of the resource by its lower-cased URN. */
  readonly byUrn: ReadonlyMap<string, SchemaDefinition>;
  /**
   * The rules of a body: canonical keys for the writable core attributes, `id` (kept so a PUT
   * can compare it with the path) and `password`, and one object per extension URN; read by
   * `readValue`, the walk PATCH reads its values with too.
   */
  readonly shape: ObjectShape;
}

/**
 * Compiles a resource's schemas (the first is the core schema, the rest extensions) into the
 * rules of a POST or PUT body (one shape), reading values under the dialect switches `rules`
 * (those a PATCH reads values with). It keeps nothing: call it once per resource type and hold
 * the result (`createScim` does).
 */
export function compileResourceInput(
  schemas: readonly SchemaDefinition[],
  rules: ValueRules = resolveDialectRules(undefined),
): CompiledResourceInput {
  const [core, ...extensions] = schemas;
  if (!core) throw new Error('compileResourceInput needs at least the core schema');
  const shape = objectShape(
    [
      // readOnly, so never stored, but a PUT answers 400 when it differs from the path.
      { name: 'id', shape: { kind: 'any' }, required: false },
      ...membersOf(core.attributes, rules),
      ...extensions.map((extension) => ({
        name: extension.id,
        shape: objectShape(membersOf(extension.attributes, rules), false),
        required: false,
      })),
    ],
    false,
  );
  return { core, byUrn: new Map(schemas.map((s) => [s.id.toLowerCase(), s])), shape };
}
