import type { AttributeDefinition, SchemaDefinition } from './types.js';
import {
  expectedScalar,
  readComplexForm,
  REFUSED,
  scalarReader,
  type ScalarReader,
  type ValueRules,
} from './value-rules.js';

/**
 * The rules of one attribute value, compiled once from its definition and the dialect switches:
 * the one description the value walk (`readValue`) reads POST, PUT and PATCH values with, so a
 * rule is written here once and every way in reads a value the same way. Each kind names the rules it carries; the rules that hold for every value of a kind are the
 * functions below (`listOf`, `isUnassigned`, `hasTwoPrimaries`, `memberAt`).
 *
 * @internal
 */
export type ValueShape = AnyShape | ScalarShape | ObjectShape | ListShape;

/** Any value, as it is (a body's `id`, which a PUT compares with its path). @internal */
export interface AnyShape {
  readonly kind: 'any';
}

/** A value of a scalar type, read by the type's rule in `value-rules.ts`. @internal */
export interface ScalarShape {
  readonly kind: 'scalar';
  /**
   * The value as stored, `undefined` for no value (an empty id, `managerEmptyString`), or
   * `REFUSED`.
   */
  readonly read: ScalarReader;
  /** What an error says a refused value must be: `must be a boolean`. */
  readonly expected: (value: unknown) => string;
}

/** One member of an object: its canonical name, its value's rules, and whether it is required. @internal */
export interface MemberShape {
  readonly name: string;
  readonly shape: ValueShape;
  /** RFC 7643 §7 `required`: the object must hold a value for it. */
  readonly required: boolean;
}

/**
 * An object of attributes (a complex value, an extension, a whole body). Its members are the
 * attributes a client may write, in the order they come out; a name matches its member in any
 * letter case (`memberAt`); `null` members are unassigned; names it does not list are ignored.
 *
 * @internal
 */
export interface ObjectShape {
  readonly kind: 'object';
  readonly members: readonly MemberShape[];
  /** Member index by exact (canonical) name. */
  readonly exact: ReadonlyMap<string, number>;
  /** Member index by lower-cased name. */
  readonly folded: ReadonlyMap<string, number>;
  /** Indexes of the required members, ascending. */
  readonly required: readonly number[];
  /**
   * Whether an object left with no values is no value (a complex value), or stays `{}`. Never
   * for an object with a required member: `members: [{}]` must not pass as no member at all.
   */
  readonly emptyIsNoValue: boolean;
  /**
   * The dialect forms of a complex value, read before the object is (`readComplexForm`);
   * `undefined` out means no value (an empty id, `managerEmptyString`).
   */
  readonly readForm: ((value: unknown) => unknown) | undefined;
}

/** A multi-valued attribute: a list of values of `item`. @internal */
export interface ListShape {
  readonly kind: 'list';
  readonly item: ValueShape;
  /** RFC 7643 §2.4: at most one value may be `primary` (complex values only). */
  readonly onePrimary: boolean;
}

/** The error detail ending for a value that must be an object of (sub-)attributes. @internal */
export const NOT_AN_OBJECT = 'must be an object';

/**
 * The error detail ending for a `null` element of a list: null unassigns a whole attribute
 * (RFC 7643 §2.5), it is not one of its values. @internal
 */
export const NULL_ITEM = 'must not be null (null unassigns a whole attribute, never one value)';

/** The error detail ending for an object that lacks a required member. @internal */
export const REQUIRED = 'is required';

/** The error detail ending for a list with two primary values. @internal */
export const TWO_PRIMARIES = 'may have at most one primary value';

/** The error detail ending for an object naming one member twice (`value` and `VALUE`). @internal */
export function namedTwice(name: string): string {
  return `names "${name}" twice, in different letter cases`;
}

/**
 * Tells whether a value is unassigned: `null` (or absent) means "no value", never an error.
 *
 * @see RFC 7643 §2.5
 * @internal
 */
export function isUnassigned(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/**
 * Reads the value of a multi-valued attribute as a list: one bare value is a list of one.
 *
 * @see RFC 7643 §2.4
 * @internal
 */
export function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * Tells whether a list of values holds more than one `primary: true` value.
 *
 * @see RFC 7643 §2.4
 * @internal
 */
export function hasTwoPrimaries(values: readonly unknown[]): boolean {
  let primaries = 0;
  for (const value of values) {
    if ((value as { primary?: unknown } | null)?.primary === true && ++primaries > 1) return true;
  }
  return false;
}

/**
 * Tells whether a client may send a value for an attribute: readOnly ones are the server's to
 * set, so a client's copy is ignored (not refused).
 *
 * @see RFC 7643 §7
 * @internal
 */
export function isClientWritable(definition: AttributeDefinition): boolean {
  return definition.mutability !== 'readOnly';
}

/**
 * Tells whether an attribute is an id reference: a singular complex attribute with a `value`
 * sub-attribute, the id of another resource (the Enterprise `manager`). The dialect rules
 * `managerEmptyString` and `managerValueFilter` act on these.
 *
 * @see RFC 7643 §4.3
 * @internal
 */
export function isIdReference(definition: AttributeDefinition): boolean {
  return (
    definition.type === 'complex' &&
    !definition.multiValued &&
    (definition.subAttributes ?? []).some((s) => s.name === 'value')
  );
}

/**
 * Returns the index of the member a name is, in any letter case, or `-1` for a name the object
 * does not list. Most clients spell names as the schema does, so the exact name is tried first.
 *
 * @see RFC 7643 §2.1
 * @internal
 */
export function memberAt(shape: ObjectShape, name: string): number {
  return shape.exact.get(name) ?? shape.folded.get(name.toLowerCase()) ?? -1;
}

/**
 * Builds the shape of an object from its members. An empty object is no value only when
 * `emptyIsNoValue` and no member is required: one that lacks a required member is refused
 * for it, as `{"type": "User"}` is among a group's members, not silently dropped.
 *
 * @internal
 */
export function objectShape(
  members: readonly MemberShape[],
  emptyIsNoValue: boolean,
  readForm?: (value: unknown) => unknown,
): ObjectShape {
  const required = members.flatMap((m, i) => (m.required ? [i] : []));
  return {
    kind: 'object',
    members,
    exact: new Map(members.map((m, i) => [m.name, i])),
    folded: new Map(members.map((m, i) => [m.name.toLowerCase(), i])),
    required,
    emptyIsNoValue: emptyIsNoValue && required.length === 0,
    readForm,
  };
}

/**
 * Returns the members of an object of attributes: the ones a client may write, each with its
 * compiled rules.
 *
 * @internal
 */
export function membersOf(
  attributes: readonly AttributeDefinition[],
  rules: ValueRules,
): MemberShape[] {
  return attributes.filter(isClientWritable).map((a) => ({
    name: a.name,
    shape: compileShape(a, rules),
    required: a.required,
  }));
}

/**
 * Compiles the rules of one attribute's value, as a POST or PUT body carries it, under the
 * dialect switches `rules` (the same a PATCH reads values with): a scalar type's reader; a
 * complex value's dialect forms and sub-attributes; a multi-valued attribute's list.
 *
 * @see RFC 7643 §2.3 (types), §2.4 (multi-valued), §2.5 (unassigned)
 * @internal
 */
export function compileShape(definition: AttributeDefinition, rules: ValueRules): ValueShape {
  let one: ValueShape;
  if (definition.type === 'complex') {
    const emptyId = rules.managerEmptyString && isIdReference(definition);
    const members = membersOf(definition.subAttributes ?? [], rules);
    const readForm = (x: unknown) => readComplexForm(definition, x, rules);
    one = emptyId
      ? objectShape(members.map(withEmptyId), true, (x) => (x === '' ? undefined : readForm(x)))
      : objectShape(members, true, readForm);
  } else {
    const { type } = definition;
    const read = scalarReader(type, rules);
    const expected = (x: unknown) => expectedScalar(type, x);
    one =
      definition.required && type === 'string'
        ? {
            kind: 'scalar',
            read: (x) => (isBlank(x) ? REFUSED : read(x)),
            expected: withText(expected),
          }
        : { kind: 'scalar', read, expected };
  }
  if (!definition.multiValued) return one;
  return { kind: 'list', item: one, onePrimary: definition.type === 'complex' };
}

// A required string must hold text (RFC 7643 §7 `required`: a value, and "" or white space
// is no name): `displayName: ""` is refused as a missing value would be, on every way in
// (POST, PUT, PATCH), for every resource type.
function isBlank(x: unknown): boolean {
  return typeof x === 'string' && x.trim() === '';
}

function withText(expected: (x: unknown) => string): (x: unknown) => string {
  return (x) =>
    isBlank(x) ? 'is required and must not be empty or only white space' : expected(x);
}

// Dialect rule `managerEmptyString`: Entra ID removes a manager by sending `""` for it. An id
// reference's id `""` names no resource, so it reads as `null` does, "no value", wherever it is
// written: `"manager": ""` (above), `{"value": ""}`, a PATCH of `manager.value`. Every way in
// (POST, PUT, PATCH) reads it from here.
function withEmptyId(member: MemberShape): MemberShape {
  const { shape } = member;
  if (member.name !== 'value' || shape.kind !== 'scalar') return member;
  const { read } = shape;
  return { ...member, shape: { ...shape, read: (x) => (x === '' ? undefined : read(x)) } };
}

/**
 * The value rules of every attribute and sub-attribute of some schemas, by definition.
 *
 * @internal
 */
export type ValueShapes = ReadonlyMap<AttributeDefinition, ValueShape>;

/**
 * Compiles the value rules of every attribute and sub-attribute of `schemas`, once, for an engine
 * that reads one attribute's value at a time (PATCH).
 *
 * @internal
 */
export function compileShapes(
  schemas: readonly SchemaDefinition[],
  rules: ValueRules,
): ValueShapes {
  const shapes = new Map<AttributeDefinition, ValueShape>();
  // A sub-attribute a client may write is read as its parent reads it (an id reference's
  // `value` knows it is one); a readOnly one is compiled on its own.
  const add = (definition: AttributeDefinition, shape: ValueShape): void => {
    shapes.set(definition, shape);
    const one = shape.kind === 'list' ? shape.item : shape;
    for (const sub of definition.subAttributes ?? []) {
      const member = one.kind === 'object' ? one.members[one.exact.get(sub.name) ?? -1] : undefined;
      add(sub, member ? member.shape : compileShape(sub, rules));
    }
  };
  for (const schema of schemas) for (const a of schema.attributes) add(a, compileShape(a, rules));
  return shapes;
}
