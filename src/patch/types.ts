import type { Filter } from '../filter/ast.js';
import type { ValueShapes } from '../schema/value-shape.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';

/** The PatchOp message schema URN. */
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** The three PATCH operations of RFC 7644 §3.5.2. */
export type PatchOpName = 'add' | 'remove' | 'replace';

/**
 * The names of the identity-provider dialect rules: each one accepts a request shape that is not
 * strictly RFC 7644 but that a real identity provider sends. All are on by default; a host can
 * switch any of them off through {@link PatchOptions.rules}. `docs/patch.md` lists the IdPs.
 */
export type DialectRuleName =
  /** `"op": "Replace"`, `"ADD"`: the operation name in any letter case (Entra ID). */
  | 'opAnyCase'
  /** `"True"` / `"False"` strings for boolean attributes and in value filters (Entra ID). */
  | 'stringBooleans'
  /** Path-less values whose keys are dotted paths, `{"name.givenName": "Ada"}` (Entra ID). */
  | 'dottedKeys'
  /** Path-less values whose keys are URN-qualified attributes, `{"urn:...:User:department": "x"}` (Entra ID). */
  | 'urnKeys'
  /** `remove` on a multi-valued attribute with a `value` removes just those members (Entra ID). */
  | 'removeWithValue'
  /** A filtered `add` / `replace` that matches nothing creates the value from the filter (Entra ID). */
  | 'filterMissCreates'
  /** The Enterprise `manager` given as a bare id string (Entra ID). */
  | 'managerString'
  /** Multi-valued `value`s sent as JSON-encoded objects, `{"value": "{\"value\":\"Admin\"}"}` (Entra ID). */
  | 'jsonEncodedValues'
  /** Explicit `null` values meaning "no value" rather than a type error (Entra ID, Okta). */
  | 'nullClears';

/** Every dialect rule, in the order `docs/patch.md` lists them. */
export const DIALECT_RULES: readonly DialectRuleName[] = [
  'opAnyCase',
  'stringBooleans',
  'dottedKeys',
  'urnKeys',
  'removeWithValue',
  'filterMissCreates',
  'managerString',
  'jsonEncodedValues',
  'nullClears',
];

/** Options of {@link applyPatch}. */
export interface PatchOptions {
  /** The resource's schemas: the first is the core schema, the rest are extensions. */
  readonly schemas: readonly SchemaDefinition[];
  /** The most operations one request may carry; more answer 400 `tooMany`. Default 1,000. */
  readonly maxOperations?: number;
  /**
   * The most value visits one request may make (a value of a multi-valued attribute copied,
   * tested against a value filter, looked up or written); beyond it the PATCH answers 400
   * `invalidValue` and changes nothing. Default 1,000,000.
   */
  readonly maxWork?: number;
  /** Dialect rules to switch off (`false`); every rule is on unless set to `false`. */
  readonly rules?: Partial<Record<DialectRuleName, boolean>>;
}

/** The result of {@link applyPatch}. */
export interface PatchResult {
  /** The patched resource: a new object; the input is never changed. */
  readonly resource: Record<string, unknown>;
  /** False when the patched resource deep-equals the input (nothing to write). */
  readonly changed: boolean;
  /**
   * The writeOnly values the operations set (`password`), which the engine never stores: by
   * the attribute's canonical path (`password`, `urn:…:User:secret`, `creds.secret`), each
   * coerced to its type, the last one of the request where several set the same attribute.
   * However the client named it (a URN path, a path-less or URN key, any case), it is here.
   */
  readonly writeOnly: Readonly<Record<string, unknown>>;
}

/**
 * A parsed PATCH `path`: `attrPath` or `valuePath [subAttr]`, optionally prefixed by a schema URN.
 *
 * @see RFC 7644 §3.5.2 (Figure 7)
 */
export interface PatchPath {
  /** The schema URN the client put in front of the attribute, when it did. */
  readonly schema?: string;
  readonly attribute: string;
  /** The sub-attribute: `name.givenName`, or the part after `]` in `emails[...].value`. */
  readonly subAttribute?: string;
  /** The value filter between the brackets, relative to one value of the attribute. */
  readonly filter?: Filter;
}

// The engine's own model: what every step of a PATCH passes to the next. Types only, in this
// one file, so the files that implement them import it and never each other for a type.

/** Lower-cased lookups over one set of schemas, built once and reused for every request. */
export interface SchemaIndex {
  readonly core: SchemaDefinition;
  /** Every schema by lower-cased URN, the core schema included. */
  readonly byUrn: ReadonlyMap<string, SchemaDefinition>;
  /** Attributes of a schema by lower-cased name. */
  attribute(schema: SchemaDefinition, name: string): AttributeDefinition | undefined;
  /** The required attributes of every schema, which no PATCH may leave unassigned. */
  readonly required: readonly (readonly [SchemaDefinition, AttributeDefinition])[];
  /** Sub-attributes of a complex attribute by lower-cased name. */
  subAttribute(parent: AttributeDefinition, name: string): AttributeDefinition | undefined;
}

/**
 * What every step of a PATCH needs: the schema index, the rules in force, and the paths already
 * resolved against them. Built once per {@link PatchOptions} object and reused by every request
 * that passes the same one.
 */
export interface PatchContext {
  readonly index: SchemaIndex;
  readonly rules: Readonly<Record<DialectRuleName, boolean>>;
  /** Path text → what it resolved to; see `rememberPath`. */
  readonly paths: Map<string, Resolved>;
  /** The value rules of every attribute and sub-attribute, compiled once (`compileShapes`). */
  readonly shapes: ValueShapes;
}

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

/** Tells whether one value of a multi-valued attribute matches a value filter. */
export type ElementPredicate = (element: unknown) => boolean;

/** Tells whether one value of the list is the one looked for. */
export type ValueTest = (value: unknown) => boolean;

/**
 * An equality a lookup may answer from an index: values whose `sub` (the value itself when
 * `sub` is undefined) equals `value` under `valueKey`.
 */
export interface ValueLookup {
  readonly sub: AttributeDefinition | undefined;
  readonly value: unknown;
}

/** A value an operation wrote, and the slot of the working list it went to. */
export interface Touched {
  readonly slot: number;
  readonly value: unknown;
}
