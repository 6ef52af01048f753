import type { SchemaDefinition } from '../schema/types.js';
import type { DeltaPlan } from './delta-plan.js';
import type { Draft } from './draft.js';
import type { PatchContext, PatchOpName, Target } from './types.js';
import type { ValueList } from './value-list.js';

/**
 * What one PATCH operation does to what a path resolved to: `add`, `remove` and `replace`
 * (RFC 7644 §3.5.2.1–3) each implement it in a file of their own, and the engine calls the one
 * the message names, never branching on its name. The checks every operation shares (readOnly,
 * immutable, writeOnly, required) stay in the engine.
 *
 * It sits beside the model of `types.ts`, not in it, because it names `Draft` and `ValueList`,
 * which import that model: in one file they would form an import cycle.
 */
export interface PatchOperation {
  readonly name: PatchOpName;
  /** Whether an operation on an attribute must carry a `value` (a missing one is `invalidValue`). */
  readonly needsValue: boolean;
  /**
   * Applies a message operation without `path`.
   *
   * @throws ScimError 400 `noTarget` for `remove`, `invalidValue` for a value that is not an object.
   */
  pathLess(draft: Draft, ctx: PatchContext, value: unknown): void;
  /** Applies to a whole extension, named by its URN as the path. */
  extension(draft: Draft, ctx: PatchContext, schema: SchemaDefinition, value: unknown): void;
  /** Returns the new value of a singular attribute (the target's sub-attribute changed when it names one). */
  singular(ctx: PatchContext, t: Target, current: unknown, value: unknown): unknown;
  /** Changes the working list of a multi-valued attribute in place. */
  multiValued(
    ctx: PatchContext,
    t: Target,
    list: ValueList,
    value: unknown,
    hasValue: boolean,
  ): void;
  /**
   * Plans the operation on a multi-valued attribute the store keeps apart (see `kept-apart.ts`)
   * as deltas in `plan`, without its values; a sub-attribute path never reaches it.
   *
   * @throws NeedsValues when the operation cannot be planned without the stored values.
   */
  delta(ctx: PatchContext, t: Target, plan: DeltaPlan, value: unknown, hasValue: boolean): void;
  /** Returns what a writeOnly attribute receives, coerced; `undefined` for nothing. */
  writeOnly(ctx: PatchContext, t: Target, value: unknown): unknown;
}
