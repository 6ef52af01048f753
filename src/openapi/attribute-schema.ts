import type { AttributeDefinition, AttributeType } from '../schema/types.js';
import type { JsonSchema } from './types.js';

// How each RFC 7643 §2.3 type travels in JSON: dateTime, reference and binary as strings.
const SCALAR: Readonly<Record<Exclude<AttributeType, 'complex'>, JsonSchema>> = {
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  decimal: { type: 'number' },
  integer: { type: 'integer' },
  dateTime: { type: 'string', format: 'date-time' },
  binary: { type: 'string', contentEncoding: 'base64' },
  reference: { type: 'string' },
};

// canonicalValues bound what a client may write only where the service alone writes the value
// (readOnly): elsewhere RFC 7643 §7 lets a client send others, so they are described, not
// enforced. The same rule gives `InferAttribute` its literal types.
function isClosed(a: AttributeDefinition): boolean {
  return a.mutability === 'readOnly' && a.canonicalValues !== undefined;
}

function describe(a: AttributeDefinition): string {
  const notes = [a.description];
  if (a.canonicalValues && !isClosed(a))
    notes.push(`Canonical values: ${a.canonicalValues.join(', ')} (others are accepted).`);
  if (a.referenceTypes) notes.push(`Reference types: ${a.referenceTypes.join(', ')}.`);
  if (a.mutability === 'immutable') notes.push('Immutable: set once, then never changed.');
  if (a.uniqueness !== 'none') notes.push(`Unique (${a.uniqueness}).`);
  if (a.returned === 'never') notes.push('Never returned.');
  if (a.caseExact) notes.push('Case-exact.');
  return notes.filter((n) => n !== '').join(' ');
}

function valueSchema(a: AttributeDefinition): JsonSchema {
  if (a.type === 'complex') return objectSchema(a.subAttributes ?? []);
  const schema: JsonSchema = { ...SCALAR[a.type] };
  if (isClosed(a)) schema.enum = [...(a.canonicalValues ?? [])];
  return schema;
}

/**
 * Turns one SCIM attribute definition into the JSON Schema of its value: its type (a complex
 * attribute becomes an object of its sub-attributes), an array when multi-valued, `readOnly` /
 * `writeOnly` from its mutability, an `enum` where its canonical values are exhaustive (a
 * readOnly attribute the service alone writes), and a description of the rest.
 *
 * @see RFC 7643 §2.3, §7
 */
export function attributeSchema(a: AttributeDefinition): JsonSchema {
  const value = valueSchema(a);
  const schema: JsonSchema = a.multiValued ? { type: 'array', items: value } : value;
  const description = describe(a);
  if (description !== '') schema.description = description;
  if (a.mutability === 'readOnly') schema.readOnly = true;
  if (a.mutability === 'writeOnly') schema.writeOnly = true;
  return schema;
}

/**
 * Turns a list of attributes (a schema's, or a complex attribute's sub-attributes) into the
 * JSON Schema of an object holding them. `required` names the attributes a client must send:
 * required ones that are not readOnly. Attributes the schema does not know are not refused,
 * as the service ignores them.
 */
export function objectSchema(attributes: readonly AttributeDefinition[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const patternProperties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const a of attributes) {
    // A property named `$ref` (RFC 7643's `groups.$ref`, `manager.$ref`) is valid JSON Schema,
    // but reference resolvers (validators, client generators) take it for a reference: it is
    // described by an exact pattern instead.
    if (a.name.startsWith('$')) patternProperties[`^\\${a.name}$`] = attributeSchema(a);
    else properties[a.name] = attributeSchema(a);
    if (a.required && a.mutability !== 'readOnly') required.push(a.name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (Object.keys(patternProperties).length > 0) schema.patternProperties = patternProperties;
  if (required.length > 0) schema.required = required;
  return schema;
}
