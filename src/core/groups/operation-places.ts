import { isScimError, ScimError } from '../../errors/index.js';
import type { PatchContext } from '../../patch/patch-context.js';
import type { FiredRule } from '../../schema/dialect-rules.js';

// A group PATCH hands the PATCH engine only the operations that do not change members, so the
// engine numbers them in its own list: these map its errors and fired rules back to each
// operation's place in the client's message (`Operation 3: ...`, `Operations[2].op`).

/** A rule fired by the operation at place `at` of the message. */
export interface Fired {
  readonly at: number;
  readonly rule: FiredRule;
}

/** Reports the rules fired to `ctx.trace`, in the order of the operations that fired them. */
export function report(ctx: PatchContext, fired: Fired[]): void {
  if (ctx.trace) for (const f of fired.sort((x, y) => x.at - y.at)) ctx.trace(f.rule);
}

/** An error of the message's operation `i`, numbered as the engine numbers its own (from 1). */
export function numbered(error: unknown, i: number): unknown {
  if (!isScimError(error)) return error;
  return new ScimError(error.status, `Operation ${i + 1}: ${error.detail}`, {
    scimType: error.scimType,
  });
}

// The engine's places and numbers; `placeOf[k]` is the message's place of its operation `k`.
const ENGINE_PLACE = /^Operations\[(\d+)\]/;
const ENGINE_NUMBER = /^Operation (\d+): /;

/** A rule the engine fired, at its operation's place in the message. */
export function renumbered(rule: FiredRule, placeOf: readonly number[]): Fired {
  const k = ENGINE_PLACE.exec(rule.where)?.[1];
  const at = k === undefined ? undefined : placeOf[Number(k)];
  if (at === undefined) return { at: -1, rule };
  return { at, rule: { ...rule, where: rule.where.replace(ENGINE_PLACE, `Operations[${at}]`) } };
}

/** An error of the engine, numbered by its operation's place in the message. */
export function renumberedError(error: unknown, placeOf: readonly number[]): unknown {
  if (!isScimError(error)) return error;
  const match = ENGINE_NUMBER.exec(error.detail);
  const at = match ? placeOf[Number(match[1]) - 1] : undefined;
  if (!match || at === undefined) return error;
  return numbered(
    new ScimError(error.status, error.detail.slice(match[0].length), { scimType: error.scimType }),
    at,
  );
}
