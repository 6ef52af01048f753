import { isJsonObject } from '../json/json-value.js';
import type { DialectRules } from './dialect-rules.js';
import { normaliseDateTime } from './date-time.js';
import type { AttributeDefinition, AttributeType } from './types.js';

type Json = Record<string, unknown>;

/**
 * The identity-provider dialect switches that change how one attribute value is read: the part
 * of `DialectRules` the value rules take as input, so a POST, a PUT and a PATCH read a value the
 * same way. `stringBooleans`: `"True"` / `"False"` are booleans; `managerString`: a bare string
 * where a complex value with a `value` sub-attribute is expected is that `value`;
 * `jsonEncodedValues`: a multi-valued complex value given as JSON text is that object;
 * `managerEmptyString`: an empty id (`""`) of an id reference such as `manager` is no id.
 */
export type ValueRules = Pick<
  DialectRules,
  'stringBooleans' | 'managerString' | 'jsonEncodedValues' | 'managerEmptyString'
>;

/**
 * Reads a boolean value: `true`/`false`, and with `stringBooleans` the strings `"true"` and
 * `"false"` in any case. Returns `undefined` for anything else.
 *
 * @see RFC 7643 §2.3.2
 */
export function readBoolean(value: unknown, rules: ValueRules): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string' || !rules.stringBooleans) return undefined;
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** What a scalar value reader answers for a value its type refuses. */
export const REFUSED: unique symbol = Symbol('refused');

/** Reads one scalar value: the value as stored (coerced, normalised), or {@link REFUSED}. */
export type ScalarReader = (value: unknown) => unknown;

/** The rule of one scalar type: its reader under the switches, and what an error says. */
interface ScalarRule {
  readonly reader: (rules: ValueRules) => ScalarReader;
  /** The end of the error detail for a refused value: `must be a boolean`. */
  readonly expected: (value: unknown) => string;
}

const readString: ScalarReader = (x) => (typeof x === 'string' ? x : REFUSED);
const stringRule: ScalarRule = { reader: () => readString, expected: () => 'must be a string' };
const readInteger: ScalarReader = (x) => (Number.isInteger(x) ? x : REFUSED);
const readDecimal: ScalarReader = (x) =>
  typeof x === 'number' && Number.isFinite(x) ? x : REFUSED;
// Stored in one form, so every store compares date-times as instants.
const readDateTime: ScalarReader = (x) =>
  (typeof x === 'string' ? normaliseDateTime(x) : undefined) ?? REFUSED;

// The one table of scalar value rules: POST, PUT and PATCH all read values through it, so they
// cannot disagree. A reader is made once per rules object, so a
// rule that does not depend on the switches costs no more than the plain check.
const SCALAR_RULES: Readonly<Record<Exclude<AttributeType, 'complex'>, ScalarRule>> = {
  string: stringRule,
  reference: stringRule,
  binary: stringRule,
  boolean: {
    reader: (rules) => (x) => readBoolean(x, rules) ?? REFUSED,
    expected: () => 'must be a boolean',
  },
  integer: { reader: () => readInteger, expected: () => 'must be an integer' },
  decimal: {
    reader: () => readDecimal,
    expected: (x) => (typeof x === 'number' ? 'must be a finite number' : 'must be a number'),
  },
  dateTime: {
    reader: () => readDateTime,
    expected: () => 'must be an xsd:dateTime such as 2026-01-31T12:00:00Z',
  },
};

/**
 * Returns the reader of a scalar type (every type but `complex`) under the dialect switches.
 *
 * @see RFC 7643 §2.3
 */
export function scalarReader(
  type: Exclude<AttributeType, 'complex'>,
  rules: ValueRules,
): ScalarReader {
  return SCALAR_RULES[type].reader(rules);
}

/** Returns what an error says a value of a scalar type must be: `must be a boolean`. */
export function expectedScalar(type: Exclude<AttributeType, 'complex'>, value: unknown): string {
  return SCALAR_RULES[type].expected(value);
}

/**
 * Tells whether a bare string is read as the `value` of a complex attribute: with
 * `managerString`, for a complex attribute that has a `value` sub-attribute (Entra ID's
 * `manager` as an id; `"emails": ["a@x.org"]`).
 */
function takesBareValue(definition: AttributeDefinition, rules: ValueRules): boolean {
  return (
    rules.managerString &&
    definition.type === 'complex' &&
    (definition.subAttributes ?? []).some((s) => s.name === 'value')
  );
}

/**
 * Rewrites a value of a complex attribute the way the dialect switches read it, before its
 * sub-attributes are checked: a JSON-encoded object (`jsonEncodedValues`), a bare string as its
 * `value` (`managerString`). Anything else comes back as it is, for the type check to refuse.
 */
export function readComplexForm(
  definition: AttributeDefinition,
  value: unknown,
  rules: ValueRules,
): unknown {
  let v = value;
  const encoded = definition.multiValued && rules.jsonEncodedValues;
  if (typeof v === 'string' && encoded) {
    const decoded = decodeJson(v);
    if (decoded) v = fromEncoded(decoded);
  }
  if (typeof v === 'string' && takesBareValue(definition, rules)) v = { value: v };
  return encoded && isJsonObject(v) ? unwrapEncoded(v) : v;
}

function decodeJson(text: string): Json | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

// Entra ID's AppRoleAssignmentsComplex sends `{"value": "{\"id\":…,\"value\":\"Admin\",
// \"displayName\":\"Admin\"}"}`: the real value is JSON inside `value`, with `displayName`
// for `display`.
// The `value` member is found in any letter case, as every member name is (RFC 7643 §2.1).
function unwrapEncoded(v: Json): Json {
  const key = Object.keys(v).find((name) => name.toLowerCase() === 'value');
  const text = key === undefined ? undefined : v[key];
  const inner = typeof text === 'string' ? decodeJson(text) : undefined;
  if (key === undefined || !inner || !('value' in inner)) return v;
  const { [key]: _encoded, ...rest } = v;
  return { ...rest, ...fromEncoded(inner) };
}

function fromEncoded(decoded: Json): Json {
  const { displayName, ...rest } = decoded;
  if (displayName !== undefined && rest.display === undefined) rest.display = displayName;
  return rest;
}
