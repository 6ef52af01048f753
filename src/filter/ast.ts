/** The comparison operators of RFC 7644 §3.4.2.2. */
export type CompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le';

/** A literal compared against an attribute. */
export type FilterValue = string | number | boolean | null;

import type { AttributePath } from '../schema/attribute-path.js';

// The path grammar lives in schema/, with the one attribute-name rule; re-exported here.
export type { AttributePath };

/** `attrPath op value`. */
export interface CompareFilter {
  /** Tells this node from the others. */
  readonly kind: 'compare';
  /** The attribute compared. */
  readonly path: AttributePath;
  /** The comparison operator. */
  readonly op: CompareOperator;
  /** The literal compared with the attribute's values. */
  readonly value: FilterValue;
}

/** `attrPath pr`. */
export interface PresentFilter {
  /** Tells this node from the others. */
  readonly kind: 'present';
  /** The attribute that must have a value. */
  readonly path: AttributePath;
}

/** `left and right`, `left or right`. */
export interface LogicalFilter {
  /** The logical operator. */
  readonly kind: 'and' | 'or';
  /** The left operand. */
  readonly left: Filter;
  /** The right operand. */
  readonly right: Filter;
}

/** `not (filter)`. */
export interface NotFilter {
  /** Tells this node from the others. */
  readonly kind: 'not';
  /** The negated filter. */
  readonly filter: Filter;
}

/**
 * `attr[filter]`: some value of the multi-valued attribute `path` matches `filter`, whose
 * paths are relative to that value (`emails[type eq "work"]`).
 */
export interface ValuePathFilter {
  /** Tells this node from the others. */
  readonly kind: 'valuePath';
  /** The multi-valued attribute whose values are tested. */
  readonly path: AttributePath;
  /** The filter one value must match; its paths are relative to that value. */
  readonly filter: Filter;
}

/**
 * A parsed filter expression.
 *
 * @see RFC 7644 §3.4.2.2
 */
export type Filter = CompareFilter | PresentFilter | LogicalFilter | NotFilter | ValuePathFilter;
