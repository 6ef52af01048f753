/** The comparison operators of RFC 7644 §3.4.2.2. */
export type CompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le';

/** A literal compared against an attribute. */
export type FilterValue = string | number | boolean | null;

import type { AttributePath } from '../schema/attribute-path.js';

// The path grammar lives in schema/, with the one attribute-name rule; re-exported here.
export type { AttributePath };

/** `attrPath op value`. */
export interface CompareFilter {
  readonly kind: 'compare';
  readonly path: AttributePath;
  readonly op: CompareOperator;
  readonly value: FilterValue;
}

/** `attrPath pr`. */
export interface PresentFilter {
  readonly kind: 'present';
  readonly path: AttributePath;
}

/** `left and right`, `left or right`. */
export interface LogicalFilter {
  readonly kind: 'and' | 'or';
  readonly left: Filter;
  readonly right: Filter;
}

/** `not (filter)`. */
export interface NotFilter {
  readonly kind: 'not';
  readonly filter: Filter;
}

/**
 * `attr[filter]`: some value of the multi-valued attribute `path` matches `filter`, whose
 * paths are relative to that value (`emails[type eq "work"]`).
 */
export interface ValuePathFilter {
  readonly kind: 'valuePath';
  readonly path: AttributePath;
  readonly filter: Filter;
}

/**
 * A parsed filter expression.
 *
 * @see RFC 7644 §3.4.2.2
 */
export type Filter = CompareFilter | PresentFilter | LogicalFilter | NotFilter | ValuePathFilter;
