import type { Filter } from '../filter/ast.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';
import type { ElementPredicate } from './match-element.js';
import type { ValueLookup } from './value-list.js';

/** One attribute an operation acts on, resolved against the schemas. */
export interface Target {
  readonly schema: SchemaDefinition;
  readonly attr: AttributeDefinition;
  readonly sub?: AttributeDefinition | undefined;
  readonly filter?: Filter | undefined;
  readonly predicate?: ElementPredicate | undefined;
  /** The equalities the filter implies, answered from an index of the values. */
  readonly lookups?: readonly ValueLookup[] | undefined;
  /** How the client named it, for error messages. */
  readonly label: string;
}

/** What a PATCH path names: one attribute, or a whole extension (`urn:…:enterprise:2.0:User`). */
export type Resolved =
  | { readonly kind: 'attribute'; readonly target: Target }
  | { readonly kind: 'extension'; readonly schema: SchemaDefinition };
