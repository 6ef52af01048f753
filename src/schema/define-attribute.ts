import type { AttributeDefinition, AttributeType } from './types.js';

/** The characteristics {@link defineAttribute} takes: any of RFC 7643 §7's but the name and type. */
export type AttributeOptions = Partial<Omit<AttributeDefinition, 'name' | 'type'>>;

/** The RFC 7643 §2.2 defaults, as literal types. */
interface AttributeDefaults {
  readonly multiValued: false;
  readonly description: string;
  readonly required: false;
  readonly caseExact: false;
  readonly mutability: 'readWrite';
  readonly returned: 'default';
  readonly uniqueness: 'none';
}

/**
 * The exact type {@link defineAttribute} returns: an {@link AttributeDefinition} whose name,
 * type and given characteristics keep their literal types, so `InferAttribute` can read them.
 */
export type DefinedAttribute<
  N extends string,
  T extends AttributeType,
  O extends AttributeOptions,
> = Simplify<
  { readonly name: N; readonly type: T } & Omit<AttributeDefaults, keyof O> &
    GivenDefaults<O> &
    GivenOthers<O>
>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

// A characteristic with a default is always there: the given value, or the default when the
// given one may be left out.
type GivenDefaults<O> = {
  readonly [
    K in keyof O as K extends keyof AttributeDefaults ? K : never
  ]-?: K extends keyof AttributeDefaults
    ? undefined extends O[K]
      ? Exclude<O[K], undefined> | AttributeDefaults[K]
      : O[K]
    : never;
};

// The others (canonicalValues, referenceTypes, subAttributes) are there only when given.
type GivenOthers<O> = {
  readonly [K in keyof O as K extends keyof AttributeDefaults ? never : K]: O[K];
} & Pick<
  AttributeDefinition,
  Exclude<'canonicalValues' | 'referenceTypes' | 'subAttributes', keyof O>
>;

const DEFAULTS: AttributeDefaults = {
  multiValued: false,
  description: '',
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
};

/**
 * Builds an attribute definition with RFC 7643 §2.2 defaults (singular, optional,
 * case-insensitive, readWrite, returned by default, not unique), so schema tables list only
 * what differs from them. The name, type and options keep their literal types, which is what
 * lets `InferAttributes` turn a schema into the TypeScript type of its values.
 *
 * @example
 * ```ts
 * const studentNumber = defineAttribute('studentNumber', 'string', { required: true, mutability: 'immutable' });
 * ```
 * @see RFC 7643 §2.2, §7
 */
export function defineAttribute<
  const N extends string,
  const T extends AttributeType,
  const O extends AttributeOptions = {}, // eslint-disable-line @typescript-eslint/no-empty-object-type
>(name: N, type: T, options?: O): DefinedAttribute<N, T, O> {
  return { name, type, ...DEFAULTS, ...options } as unknown as DefinedAttribute<N, T, O>;
}
