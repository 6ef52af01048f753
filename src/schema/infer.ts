import type { AttributeDefinition, AttributeType, SchemaDefinition } from './types.js';

/** Flattens an intersection into one object type, for readable hovers and errors. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The TypeScript type of a value of an RFC 7643 §2.3 scalar type: `dateTime`, `reference` and
 * `binary` travel as JSON strings.
 *
 * @see RFC 7643 §2.3
 */
export type InferScalar<T extends AttributeType> = T extends 'boolean'
  ? boolean
  : T extends 'integer' | 'decimal'
    ? number
    : T extends 'complex'
      ? Record<string, unknown>
      : string;

// canonicalValues do not bound what a client may write (RFC 7643 §7: "MAY"), so a string
// stays a string; only a readOnly attribute, which the service alone sets, is closed to them.
type InferString<A extends AttributeDefinition> = A extends {
  readonly mutability: 'readOnly';
  readonly canonicalValues: readonly (infer V extends string)[];
}
  ? V
  : string;

type InferOne<A extends AttributeDefinition> = A['type'] extends 'complex'
  ? A extends { readonly subAttributes: infer S extends readonly AttributeDefinition[] }
    ? InferAttributes<S>
    : Record<string, unknown>
  : A['type'] extends 'string'
    ? InferString<A>
    : InferScalar<A['type']>;

/**
 * The TypeScript type of one attribute's value, from its definition: its type (a complex
 * attribute becomes an object of its sub-attributes) and, when `multiValued`, an array.
 *
 * @see RFC 7643 §2.3, §2.4
 */
export type InferAttribute<A extends AttributeDefinition> = A['multiValued'] extends true
  ? InferOne<A>[]
  : InferOne<A>;

// A value the resource always holds: one the schema requires, or one always returned.
type IsPresent<A> = A extends { readonly required: true } | { readonly returned: 'always' }
  ? true
  : false;
type Returned<A> = A extends { readonly returned: 'never' } ? false : true;

/**
 * The TypeScript type of an object of attributes (a schema's, or a complex attribute's
 * sub-attributes), as a resource holds and returns it: one property per attribute with its
 * canonical name; required and `returned: always` ones present, the others optional;
 * `returned: never` ones (such as `password`) absent, since they are never stored.
 *
 * @example
 * ```ts
 * type Name = InferAttributes<[typeof givenName, typeof familyName]>;
 * ```
 * @see RFC 7643 §7
 */
export type InferAttributes<As extends readonly AttributeDefinition[]> = Simplify<
  {
    -readonly [
      A in As[number] as Returned<A> extends true
        ? IsPresent<A> extends true
          ? A['name']
          : never
        : never
    ]: InferAttribute<A>;
  } & {
    -readonly [
      A in As[number] as Returned<A> extends true
        ? IsPresent<A> extends true
          ? never
          : A['name']
        : never
    ]?: InferAttribute<A>;
  }
>;

/**
 * The TypeScript type of the values of an extension schema, as they sit under its URN in a
 * resource. Declare the schema with `defineSchema` and `defineAttribute` so the literal types
 * survive.
 *
 * @example
 * ```ts
 * type District = InferExtension<typeof districtSchema>; // { studentNumber: string; ... }
 * ```
 * @see RFC 7643 §3.3
 */
export type InferExtension<S extends SchemaDefinition> = InferAttributes<S['attributes']>;

/**
 * The property an extension adds to a resource: its values under its URN. Intersect it with
 * `ScimUser` for a precisely typed user of a server with host extensions.
 *
 * @example
 * ```ts
 * type DistrictUser = ScimUser & WithExtension<typeof districtSchema>;
 * ```
 */
export type WithExtension<S extends SchemaDefinition> = { [K in S['id']]?: InferExtension<S> };
