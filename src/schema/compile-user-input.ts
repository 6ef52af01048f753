import * as v from 'valibot';
import { objectSchema, type ObjectEntry, type ValueSchema } from './object-schema.js';
import type { SchemaDefinition } from './types.js';
import {
  compileFastValue,
  fastObject,
  readAny,
  type FastEntry,
  type FastReader,
} from './fast-value.js';
import { compileValue } from './value-schema.js';
import { DEFAULT_VALUE_RULES, type ValueRules } from './value-rules.js';

/** A resource's schemas compiled, once, for POST and PUT bodies. */
export interface CompiledUserInput {
  /** The core schema (the first of the list). */
  readonly core: SchemaDefinition;
  /** Every schema of the resource by its lower-cased URN. */
  readonly byUrn: ReadonlyMap<string, SchemaDefinition>;
  /**
   * The body's schema: canonical keys for the writable core attributes, `id` (kept so a PUT
   * can compare it with the path) and `password`, and one object per extension URN.
   */
  readonly body: ValueSchema;
  /** The same rules for plain, valid bodies, without valibot; see {@link FastReader}. */
  readonly fastBody: FastReader;
}

// Per schema list, then per rules object: the core passes the same two on every request.
const compiled = new WeakMap<readonly SchemaDefinition[], WeakMap<ValueRules, CompiledUserInput>>();

// Each member with both forms of its rules: the valibot schema and the fast reader.
type Entry = ObjectEntry & FastEntry;

// The writable attributes of a schema (readOnly ones are the server's to set).
function entriesOf(schema: SchemaDefinition, rules: ValueRules): Entry[] {
  return schema.attributes
    .filter((a) => a.mutability !== 'readOnly')
    .map((a) => ({
      name: a.name,
      schema: compileValue(a, rules),
      read: compileFastValue(a, rules),
      required: a.required,
    }));
}

/**
 * Compiles a resource's schemas (the first is the core schema, the rest extensions) into the
 * valibot schema of a POST or PUT body and its fast reader, both from one list of members,
 * reading values under the dialect switches `rules` (those a PATCH reads values with). The
 * result is cached per schema list and rules object, so the core, which passes the same two on
 * every request, compiles once.
 */
export function compileUserInput(
  schemas: readonly SchemaDefinition[],
  rules: ValueRules = DEFAULT_VALUE_RULES,
): CompiledUserInput {
  let byRules = compiled.get(schemas);
  if (!byRules) compiled.set(schemas, (byRules = new WeakMap()));
  const cached = byRules.get(rules);
  if (cached) return cached;
  const [core, ...extensions] = schemas;
  if (!core) throw new Error('compileUserInput needs at least the core schema');
  const entries: Entry[] = [
    // readOnly, so never stored, but a PUT answers 400 when it differs from the path.
    { name: 'id', schema: v.unknown(), read: readAny },
    ...entriesOf(core, rules),
    ...extensions.map((extension) => {
      const members = entriesOf(extension, rules);
      return {
        name: extension.id,
        schema: objectSchema(members, false),
        read: fastObject(members, false),
      };
    }),
  ];
  const result: CompiledUserInput = {
    core,
    byUrn: new Map(schemas.map((s) => [s.id.toLowerCase(), s])),
    body: objectSchema(entries, false),
    fastBody: fastObject(entries, false),
  };
  byRules.set(rules, result);
  return result;
}
