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
  /** The attribute's name, as the schema spells it (matched in any case). */
  readonly name: string;
  /** The attribute's data type. */
  readonly type: AttributeType;
  /** Whether the attribute holds a list of values. */
  readonly multiValued: boolean;
  /** What the attribute means, for `/Schemas`. */
  readonly description: string;
  /** Whether every resource must have a value. */
  readonly required: boolean;
  /** Whether string values compare with their letter case. */
  readonly caseExact: boolean;
  /** Who may write the attribute. */
  readonly mutability: Mutability;
  /** When the attribute is returned. */
  readonly returned: Returned;
  /** How its values must be unique. */
  readonly uniqueness: Uniqueness;
  /** The values a client should send, when the schema suggests some. */
  readonly canonicalValues?: readonly string[];
  /** What a `reference` attribute may point to (`User`, `Group`, `external`, `uri`). */
  readonly referenceTypes?: readonly string[];
  /** The sub-attributes of a `complex` attribute. */
  readonly subAttributes?: readonly AttributeDefinition[];
}

/**
 * Describes one schema (a resource's core schema or an extension).
 *
 * @see RFC 7643 §7
 */
export interface SchemaDefinition {
  /** The schema's URN. */
  readonly id: string;
  /** The schema's human-readable name. */
  readonly name: string;
  /** What the schema describes, for `/Schemas`. */
  readonly description: string;
  /** The schema's attributes, in their order. */
  readonly attributes: readonly AttributeDefinition[];
}
