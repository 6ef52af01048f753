// The hand-written validator as it was before the valibot rewrite, frozen so the benchmark can
// compare both in one run. Not used by the library.
import { scimErrors } from '../../src/errors/index.js';
import { isEmailAddress, MAX_EMAIL_LENGTH } from '../../src/schema/email.js';
import type { AttributeDefinition, SchemaDefinition } from '../../src/schema/types.js';

// The name lookup of the time (a scan), frozen with the rest; the library resolves through
// the compiled resource type now.
function findAttribute(
  attributes: readonly AttributeDefinition[] | undefined,
  name: string,
): AttributeDefinition | undefined {
  const lower = name.toLowerCase();
  return attributes?.find((a) => a.name.toLowerCase() === lower);
}

/** A POST or PUT body reduced to what a client may write. */
export interface UserInput {
  /** The `schemas` the client sent, in its order. */
  readonly schemas: readonly string[];
  /**
   * Writable attributes with canonical names: core ones at the top level, extension ones in
   * an object under their schema URN. Unknown attributes and readOnly ones are left out.
   */
  readonly attributes: Record<string, unknown>;
  /** The `id` the client sent, if any (a PUT compares it with the path). */
  readonly id?: unknown;
  /** The writeOnly `password`, if sent; never stored. */
  readonly password?: string;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validates and coerces a POST or PUT User body against the resource's schemas (the first is
 * the core schema, the rest extensions). Names match regardless of case and come out
 * canonical; `null` and empty arrays mean "no value"; `"True"`/`"False"` strings become
 * booleans; readOnly attributes are ignored (RFC 7643 §7); attributes no schema defines are
 * ignored, never rejected.
 *
 * @throws ScimError 400 `invalidSyntax` when the body is not an object or lacks the core schema,
 *   `invalidValue` for an unknown schema URN, a wrong type or a bad userName.
 * @see RFC 7643 §2, §4.1; RFC 7644 §3.3
 */
export function validateUserInput(body: unknown, schemas: readonly SchemaDefinition[]): UserInput {
  if (!isObject(body)) throw scimErrors.invalidSyntax('The request body must be a JSON object.');
  const core = schemas[0];
  if (!core) throw new Error('validateUserInput needs at least the core schema');
  const declared = body.schemas;
  if (!Array.isArray(declared) || !declared.every((s): s is string => typeof s === 'string')) {
    throw scimErrors.invalidSyntax('"schemas" must be an array of schema URNs.');
  }
  const byUrn = new Map(schemas.map((s) => [s.id.toLowerCase(), s]));
  for (const urn of declared) {
    if (!byUrn.has(urn.toLowerCase()))
      throw scimErrors.invalidValue(`Unknown schema URN "${urn}" in "schemas".`);
  }
  if (!declared.some((s) => s.toLowerCase() === core.id.toLowerCase())) {
    throw scimErrors.invalidSyntax(`"schemas" must contain "${core.id}".`);
  }

  const attributes: Json = {};
  let id: unknown;
  let password: string | undefined;
  for (const [key, value] of Object.entries(body)) {
    const extension = byUrn.get(key.toLowerCase());
    if (extension && extension !== core) {
      if (value === null) continue;
      if (!isObject(value))
        throw scimErrors.invalidValue(
          `"${key}" must be an object of ${extension.name} attributes.`,
        );
      const values = coerceAttributes(value, extension.attributes, extension.id);
      if (Object.keys(values).length > 0) attributes[extension.id] = values;
      continue;
    }
    const definition = findAttribute(core.attributes, key);
    if (!definition) continue;
    if (definition.name === 'id') id = value;
    else if (definition.name === 'password') {
      if (value !== null && value !== undefined)
        password = coerceValue(value, definition, 'password') as string;
    } else if (definition.mutability !== 'readOnly') {
      const coerced = coerceValue(value, definition, definition.name);
      if (coerced !== undefined) attributes[definition.name] = coerced;
    }
  }
  checkUserName(attributes.userName);
  const input: { -readonly [K in keyof UserInput]: UserInput[K] } = {
    schemas: declared,
    attributes,
  };
  if (id !== undefined) input.id = id;
  if (password !== undefined) input.password = password;
  return input;
}

/** Checks the userName invariant: present, an email address, at most 254 characters. */
export function checkUserName(userName: unknown): asserts userName is string {
  if (userName === undefined) throw scimErrors.invalidValue('"userName" is required.');
  if (typeof userName !== 'string') throw scimErrors.invalidValue('"userName" must be a string.');
  if (userName.length > MAX_EMAIL_LENGTH) {
    throw scimErrors.invalidValue(`"userName" must be at most ${MAX_EMAIL_LENGTH} characters.`);
  }
  if (!isEmailAddress(userName))
    throw scimErrors.invalidValue(`"userName" must be an email address; got "${userName}".`);
}

function coerceAttributes(
  value: Json,
  definitions: readonly AttributeDefinition[],
  where: string,
): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    const definition = findAttribute(definitions, key);
    if (!definition || definition.mutability === 'readOnly') continue;
    const coerced = coerceValue(v, definition, `${where}:${definition.name}`);
    if (coerced !== undefined) out[definition.name] = coerced;
  }
  return out;
}

/**
 * Coerces one attribute value to its definition; `undefined` means "no value".
 *
 * @throws ScimError 400 `invalidValue` when the value has the wrong type.
 */
export function coerceValue(
  value: unknown,
  definition: AttributeDefinition,
  where: string,
): unknown {
  if (value === null || value === undefined) return undefined;
  if (!definition.multiValued) return coerceSingle(value, definition, where);
  const items = Array.isArray(value) ? value : [value];
  const out: unknown[] = [];
  for (const item of items) {
    const element =
      definition.type === 'complex' && typeof item === 'string' ? { value: item } : item;
    const coerced = coerceSingle(element, definition, where);
    if (coerced !== undefined) out.push(coerced);
  }
  if (out.length === 0) return undefined;
  if (definition.type === 'complex' && out.filter((e) => (e as Json).primary === true).length > 1) {
    throw scimErrors.invalidValue(`At most one value of "${where}" may be primary.`);
  }
  return out;
}

function coerceSingle(value: unknown, definition: AttributeDefinition, where: string): unknown {
  if (value === null || value === undefined) return undefined;
  const wrong = (expected: string) =>
    scimErrors.invalidValue(`"${where}" must be ${expected}; got ${JSON.stringify(value)}.`);
  switch (definition.type) {
    case 'string':
    case 'reference':
    case 'binary':
      if (typeof value !== 'string') throw wrong('a string');
      return value;
    case 'dateTime':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
        throw wrong('an ISO 8601 date-time');
      return value;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value))
        return value.toLowerCase() === 'true';
      throw wrong('a boolean');
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw wrong('an integer');
      return value;
    case 'decimal':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong('a number');
      return value;
    case 'complex': {
      if (!isObject(value)) throw wrong('an object');
      const out = coerceAttributes(value, definition.subAttributes ?? [], where);
      return Object.keys(out).length === 0 ? undefined : out;
    }
  }
}
