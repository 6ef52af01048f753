import type { Filter } from '../filter/ast.js';
import type { WorkMeter } from '../filter/work-meter.js';
import type { ValueShapes } from '../schema/value-shape.js';
import type { DialectRules, FiredRule, RuleTrace } from '../schema/dialect-rules.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';

/** The three PATCH operations of RFC 7644 §3.5.2. */
export type PatchOpName = 'add' | 'remove' | 'replace';

// The dialect rules are an input of the compiled resource type (schema/dialect-rules.ts).
export { DIALECT_RULES, type DialectRuleName } from '../schema/dialect-rules.js';

/** Options of {@link applyPatch}. */
export interface PatchOptions {
  /**
   * The compiled resource type (`compileResourceType`, `userResourceType`): its schemas, its
   * attribute index and the dialect rules in force.
   */
  readonly resourceType: CompiledResourceType;
  /** The most operations one request may carry; more answer 400 `tooMany`. Default 1,000. */
  readonly maxOperations?: number;
  /**
   * The most work units one request may spend (`WORK_COSTS`: a value of a multi-valued
   * attribute copied, tested against a value filter, looked up or written costs a visit; the
   * text a test or lookup compares or folds costs its characters); beyond it the PATCH answers
   * 400 `invalidValue` and changes nothing. Default 20,000,000 (`DEFAULT_MAX_PATCH_WORK`).
   */
  readonly maxWork?: number;
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
  /** The attribute name, as the client wrote it. */
  readonly attribute: string;
  /** The sub-attribute: `name.givenName`, or the part after `]` in `emails[...].value`. */
  readonly subAttribute?: string;
  /** The value filter between the brackets, relative to one value of the attribute. */
  readonly filter?: Filter;
}

// The engine's own model: what every step of a PATCH passes to the next. Types only, in this
// one file, so the files that implement them import it and never each other for a type.

/**
 * What every step of a PATCH needs: the compiled resource type (its index and resolver), the
 * rules in force and the limits.
 * `createScim` builds one and reuses it for every request; `applyPatch` builds one per call.
 */
export interface PatchContext {
  /** The compiled resource type: every lookup of a schema, attribute or sub-attribute. */
  readonly index: CompiledResourceType;
  readonly rules: DialectRules;
  readonly maxOperations: number;
  readonly maxWork: number;
  /** The value rules of every attribute and sub-attribute, compiled once (`compileShapes`). */
  readonly shapes: ValueShapes;
  /**
   * Hears each dialect rule where it fires, `where` relative to the operation (`.op`,
   * `.value.name.givenName`); only set for a request someone listens to.
   */
  readonly trace?: RuleTrace | undefined;
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
  /**
   * The dialect rules reading the path took (a value without quotes, `"True"` for a boolean in
   * the value filter), reported for each operation that names it while someone listens.
   */
  readonly fired?: readonly FiredRule[] | undefined;
}

/** What a PATCH path names: one attribute, or a whole extension (`urn:…:enterprise:2.0:User`). */
export type Resolved =
  | { readonly kind: 'attribute'; readonly target: Target }
  | { readonly kind: 'extension'; readonly schema: SchemaDefinition };

/**
 * Tells whether one value of a multi-valued attribute matches a value filter, charging what the
 * test costs to the request's `meter` (when given) first.
 */
export type ElementPredicate = (element: unknown, meter?: WorkMeter) => boolean;

/**
 * Tells whether one value of the list is the one looked for, charging what the test costs
 * beyond the visit itself to the request's `meter`.
 */
export type ValueTest = (value: unknown, meter: WorkMeter) => boolean;

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
