/** The data types of RFC 7643 §2.3. */
export type AttributeType =
  'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'binary' | 'reference' | 'complex';

/** RFC 7643 §7 `mutability`. */
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
/** RFC 7643 §7 `returned`. */
export type Returned = 'always' | 'never' | 'default' | 'request';
/** RFC 7643 §7 `uniqueness`. */
export type Uniqueness = 'none' | 'server' | 'global';

/**
 * Describes one attribute of a schema, exactly as RFC 7643 §7 lists its characteristics.
 * The same object drives validation, PATCH, filtering, projection and the `/Schemas` output.
 *
 * @see RFC 7643 §7
 */
export interface AttributeDefinition {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued: boolean;
  readonly description: string;
  readonly required: boolean;
  readonly caseExact: boolean;
  readonly mutability: Mutability;
  readonly returned: Returned;
  readonly uniqueness: Uniqueness;
  readonly canonicalValues?: readonly string[];
  readonly referenceTypes?: readonly string[];
  readonly subAttributes?: readonly AttributeDefinition[];
}

/**
 * Describes one schema (a resource's core schema or an extension).
 *
 * @see RFC 7643 §7
 */
export interface SchemaDefinition {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly attributes: readonly AttributeDefinition[];
}
