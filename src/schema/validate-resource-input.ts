import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { CompiledResourceInput } from './compile-resource-input.js';
import { readValue, ValueRefusal, type ValueReading } from './read-value.js';
import { refusalToScimError } from './refusal-to-scim-error.js';
import { previewJson } from '../json/preview-json.js';

/** A POST or PUT body reduced to what a client may write. */
export interface ResourceInput {
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

/**
 * Validates and coerces a POST or PUT body (of a User, a Group or a host's resource type)
 * against the resource's schemas, compiled once by `compileResourceInput` (which fixes the
 * dialect switches, the same a PATCH reads values with).
 * Names match regardless of case and come out canonical; `null` and empty arrays mean "no
 * value"; `"True"`/`"False"` strings become booleans and date-times are stored in one form;
 * readOnly attributes are ignored (RFC 7643 §7); attributes no schema defines are ignored,
 * never rejected.
 *
 * @throws ScimError 400 `invalidSyntax` when the body is not an object or lacks the core schema,
 *   `invalidValue` for an unknown schema URN, a wrong type or a missing required attribute; the
 *   detail names the attribute and what was expected. The userName rule is the write's to
 *   apply (see `userNameCheck`).
 * @see RFC 7643 §2, §4.1; RFC 7644 §3.3
 */
export function validateResourceInput(
  body: unknown,
  compiled: CompiledResourceInput,
): ResourceInput {
  if (!isJsonObject(body))
    throw scimErrors.invalidSyntax('The request body must be a JSON object.');
  const { core, byUrn, shape } = compiled;
  const declared = body.schemas;
  if (!Array.isArray(declared) || !declared.every((s): s is string => typeof s === 'string')) {
    throw scimErrors.invalidSyntax('"schemas" must be an array of schema URNs.');
  }
  for (const urn of declared) {
    if (!byUrn.has(urn.toLowerCase()))
      throw scimErrors.invalidValue(`Unknown schema URN ${previewJson(urn)} in "schemas".`);
  }
  if (!declared.some((s) => s.toLowerCase() === core.id.toLowerCase())) {
    throw scimErrors.invalidSyntax(`"schemas" must contain "${core.id}".`);
  }
  const output = readBody(shape, body);
  const { id, password } = output;
  const attributes = attributesOf(output);
  for (const key in attributes) {
    // An extension object that held only readOnly or unknown attributes says nothing.
    const value = attributes[key];
    if (isJsonObject(value) && key.includes(':') && Object.keys(value).length === 0)
      delete attributes[key];
  }
  const input: { -readonly [K in keyof ResourceInput]: ResourceInput[K] } = {
    schemas: declared,
    attributes,
  };
  if (id !== undefined) input.id = id;
  if (typeof password === 'string') input.password = password;
  return input;
}

// A body is a whole value: a null member is no value, every object holds its required members.
const BODY: ValueReading = { merge: false, nullClears: false };

function readBody(shape: CompiledResourceInput['shape'], body: Json): Json {
  try {
    return readValue(shape, body, BODY) as Json;
  } catch (error) {
    throw error instanceof ValueRefusal ? refusalToScimError(error) : error;
  }
}

// The validated body without `id` and `password`, which are not stored attributes. The output
// is a new object of the validation: it is copied only when it holds one of them.
function attributesOf(output: Json): Json {
  if (output.id === undefined && output.password === undefined) return output;
  const { id: _id, password: _password, ...attributes } = output;
  return attributes;
}
