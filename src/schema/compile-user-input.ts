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

const compiled = new WeakMap<readonly SchemaDefinition[], CompiledUserInput>();

function writable(schema: SchemaDefinition) {
  return schema.attributes.filter((a) => a.mutability !== 'readOnly');
}

function entriesOf(schema: SchemaDefinition): ObjectEntry[] {
  return writable(schema).map((a) => ({
    name: a.name,
    schema: compileValue(a),
    required: a.required,
  }));
}

function fastEntriesOf(schema: SchemaDefinition): FastEntry[] {
  return writable(schema).map((a) => ({
    name: a.name,
    read: compileFastValue(a),
    required: a.required,
  }));
}

/**
 * Compiles a resource's schemas (the first is the core schema, the rest extensions) into the
 * valibot schema of a POST or PUT body. The result is cached per schema list, so the core,
 * which passes the same list on every request, compiles once.
 */
export function compileUserInput(schemas: readonly SchemaDefinition[]): CompiledUserInput {
  const cached = compiled.get(schemas);
  if (cached) return cached;
  const [core, ...extensions] = schemas;
  if (!core) throw new Error('compileUserInput needs at least the core schema');
  const entries: ObjectEntry[] = [
    // readOnly, so never stored, but a PUT answers 400 when it differs from the path.
    { name: 'id', schema: v.unknown() },
    ...entriesOf(core),
    ...extensions.map((extension) => ({
      name: extension.id,
      schema: objectSchema(entriesOf(extension), false),
    })),
  ];
  const result: CompiledUserInput = {
    core,
    byUrn: new Map(schemas.map((s) => [s.id.toLowerCase(), s])),
    body: objectSchema(entries, false),
    // Entry for entry the same members as `entries`, in the same order.
    fastBody: fastObject(
      [
        { name: 'id', read: readAny },
        ...fastEntriesOf(core),
        ...extensions.map((extension) => ({
          name: extension.id,
          read: fastObject(fastEntriesOf(extension), false),
        })),
      ],
      false,
    ),
  };
  compiled.set(schemas, result);
  return result;
}
