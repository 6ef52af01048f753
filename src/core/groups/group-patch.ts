import type { MemberInput } from '../../contracts/group-store.js';
import { scimErrors } from '../../errors/index.js';
import type { Filter } from '../../filter/ast.js';
import { isJsonObject } from '../../json/json-value.js';
import { applyPatchIn } from '../../patch/apply-patch.js';
import { coerceMany } from '../../patch/coerce-value.js';
import { parsePatchPath, pathOptionsOf } from '../../patch/parse-patch-path.js';
import type { PatchContext } from '../../patch/patch-context.js';
import { hasMember, member, readMessage } from '../../patch/read-patch-message.js';
import type { AttributeDefinition } from '../../schema/types.js';
import { MemberPlan } from './member-plan.js';
import { PATCH_OP_SCHEMA } from '../../schema/urns.js';
import { numbered, renumbered, renumberedError, report, type Fired } from './operation-places.js';

type Json = Record<string, unknown>;

/** A group PATCH translated without reading the member list. */
export interface GroupPatchPlan {
  /** The group's attributes after the operations that do not name members; `null`: unchanged. */
  readonly attributes: Json | null;
  /** What the operations do to the members. */
  readonly members: MemberPlan;
}

/**
 * Translates a PatchOp message on a group into attribute changes and membership deltas, so
 * that adding or removing one member never reads or rewrites the member list. The membership
 * shapes translated (RFC 7644 §3.5.2 and the identity providers' forms):
 *
 * - `add` of `members` (one value or a list), also path-less `{"members": [...]}`;
 * - `remove` of `members[value eq "id"]` (or several `value eq` joined by `or`);
 * - `remove` of `members` with a `value` list: only those members leave (dialect rule
 *   `removeWithValue`; without it the PATCH engine refuses the shape, as for any attribute);
 * - `remove` of `members` without a value, and `replace` of `members` (path or path-less):
 *   the whole list.
 *
 * The dialect rules are the PATCH engine's, read and reported (`ctx.trace`) the same way:
 * `opAnyCase`, `removeWithValue`, `nullClears`, `urnKeys` (a path-less
 * `urn:…:Group:members` key), `unquotedFilterValues` and `emptyOperations`.
 *
 * Every other operation that names `members` (a filter on `display`, a sub-attribute path)
 * needs the list: the answer is `undefined`, and the caller applies the whole message to the
 * group with its members ({@link patchWithMembers}). Operations that do not name members go
 * through the PATCH engine on the group without them, with the same rules and errors.
 *
 * @throws ScimError 400 as `applyPatch` does.
 * @see RFC 7644 §3.5.2
 */
export function planGroupPatch(
  ctx: PatchContext,
  current: Json,
  body: unknown,
): GroupPatchPlan | undefined {
  const operations = readMessage(body, ctx.maxOperations, ctx.rules.emptyOperations);
  const membersDef = ctx.index.attribute(ctx.index.core, 'members');
  if (!membersDef) throw new Error('The Group resource type has no "members" attribute.');
  const plan = new MemberPlan();
  // The operations left to the engine, with their place in the message (errors and fired
  // rules name an operation by it).
  const others: unknown[] = [];
  const placeOf: number[] = [];
  // The rules fired, reported in the message's order once the plan holds (a message that
  // needs the list goes to the engine whole, which reports them all).
  const fired: Fired[] = [];
  for (let i = 0; i < operations.length; i++) {
    const raw = operations[i];
    const at: PatchContext = ctx.trace
      ? {
          ...ctx,
          trace: (f) => fired.push({ at: i, rule: { ...f, where: `Operations[${i}]${f.where}` } }),
        }
      : ctx;
    const left: unknown[] = [];
    let handled: boolean | 'needs list';
    try {
      handled = translate(raw, at, membersDef, plan, left);
    } catch (error) {
      throw numbered(error, i);
    }
    if (handled === 'needs list') return undefined;
    for (const op of handled ? left : [raw]) {
      others.push(op);
      placeOf.push(i);
    }
  }
  // A message whose every operation was translated is done; an empty one goes to the engine,
  // which reports `emptyOperations` as it allows it.
  if (others.length === 0 && operations.length > 0) {
    report(ctx, fired);
    return { attributes: null, members: plan };
  }
  const inEngine: PatchContext = ctx.trace
    ? { ...ctx, trace: (f) => fired.push(renumbered(f, placeOf)) }
    : ctx;
  const message = { schemas: [PATCH_OP_SCHEMA], Operations: others };
  try {
    const result = applyPatchIn(inEngine, current, message);
    return { attributes: result.changed ? result.resource : null, members: plan };
  } catch (error) {
    throw renumberedError(error, placeOf);
  } finally {
    report(ctx, fired);
  }
}

/**
 * Applies a PatchOp message to a group read with its members, and returns the new attributes
 * (without `members`, `null` when unchanged) and the membership change as deltas.
 *
 * @throws ScimError 400 as `applyPatch` does.
 */
export function patchWithMembers(ctx: PatchContext, current: Json, body: unknown): GroupPatchPlan {
  const result = applyPatchIn(ctx, current, body);
  const { members: before, ...restBefore } = current;
  const { members: after, ...restAfter } = result.resource;
  const plan = new MemberPlan();
  const old = new Set(valuesOf(before));
  const next = valuesOf(after);
  const kept = new Set(next);
  plan.remove([...old].filter((id) => !kept.has(id)));
  plan.add(next.filter((id) => !old.has(id)).map((value) => ({ value })));
  const changed = result.changed && JSON.stringify(restBefore) !== JSON.stringify(restAfter);
  return { attributes: changed ? restAfter : null, members: plan };
}

function valuesOf(members: unknown): string[] {
  if (!Array.isArray(members)) return [];
  return members.flatMap((m) => (isJsonObject(m) && typeof m.value === 'string' ? [m.value] : []));
}

// Translates one operation into `plan` when it is a membership shape: true when done, false
// when it names no members (the engine applies it), 'needs list' when it needs the list.
function translate(
  raw: unknown,
  ctx: PatchContext,
  membersDef: AttributeDefinition,
  plan: MemberPlan,
  others: unknown[],
): boolean | 'needs list' {
  if (!isJsonObject(raw)) return false;
  const rawOp = member(raw, 'op');
  const op = typeof rawOp === 'string' && ctx.rules.opAnyCase ? rawOp.toLowerCase() : rawOp;
  if (op !== 'add' && op !== 'remove' && op !== 'replace') return false;
  const path = member(raw, 'path');
  const value = member(raw, 'value');
  // Reported once the operation is known to be translated here (the engine reports the rest).
  const fireOpAnyCase = () => {
    if (op !== rawOp) ctx.trace?.({ rule: 'opAnyCase', where: '.op', received: rawOp, became: op });
  };
  if (path === undefined || path === null || (typeof path === 'string' && path.trim() === '')) {
    if (op === 'remove' || !isJsonObject(value)) return false;
    const key = Object.keys(value).find((k) => namesMembers(k, ctx, membersDef));
    if (key === undefined) return false;
    fireOpAnyCase();
    if (key.toLowerCase() !== 'members') {
      const became = `${ctx.index.core.id}:${membersDef.name}`;
      ctx.trace?.({ rule: 'urnKeys', where: `.value.${key}`, received: key, became });
    }
    const { [key]: list, ...rest } = value;
    if (Object.keys(rest).length > 0) others.push({ op, value: rest });
    const members = readMembers(list, ctx, membersDef);
    if (op === 'add') plan.add(members);
    else plan.replace(members);
    return true;
  }
  if (typeof path !== 'string') return false;
  let parsed;
  try {
    parsed = parsePatchPath(path, pathOptionsOf(ctx.rules));
  } catch {
    return false; // the engine answers the same error, numbered
  }
  const resolved = ctx.index.resolve({
    ...(parsed.schema === undefined ? {} : { schema: parsed.schema }),
    attribute: parsed.attribute,
  });
  if (resolved?.attribute !== membersDef) return false;
  if (parsed.subAttribute !== undefined) {
    refuseImmutableSub(parsed.subAttribute, ctx, membersDef);
    return 'needs list';
  }
  const hasValue = hasMember(raw, 'value');
  // Without `removeWithValue`, the engine refuses a remove with a value, as for any attribute.
  const withValue = op === 'remove' && hasValue && value !== null;
  if (withValue && parsed.filter === undefined && !ctx.rules.removeWithValue) return false;
  if (parsed.filter !== undefined) {
    const ids = memberIdsOf(parsed.filter, ctx, membersDef);
    if (op !== 'remove') {
      refuseRepointing(op, ids, readMembers(value, ctx, membersDef));
      return 'needs list';
    }
    if (!ids) return 'needs list';
    fireOpAnyCase();
    plan.remove(ids);
    return true;
  }
  fireOpAnyCase();
  if (op === 'add') {
    if (!hasValue) throw scimErrors.invalidValue('"add" of "members" needs a "value".');
    plan.add(readMembers(value, ctx, membersDef));
  } else if (op === 'replace') {
    plan.replace(readMembers(value, ctx, membersDef));
  } else if (withValue) {
    ctx.trace?.({ rule: 'removeWithValue', where: '.value', received: value, became: undefined });
    plan.remove(readMembers(value, ctx, membersDef).map((m) => m.value));
  } else {
    plan.replace([]);
  }
  return true;
}

// A member's `value`, `type` and `$ref` are immutable (RFC 7643 §4.2, §8.7.1): a membership is
// added or removed whole, never re-pointed or retyped, so a PATCH that names one of them as its
// target is refused before anything is read or written (RFC 7644 §3.5.2: 400 `mutability`).
function refuseImmutableSub(name: string, ctx: PatchContext, membersDef: AttributeDefinition) {
  const sub = ctx.index.resolve({ attribute: name }, membersDef)?.attribute;
  if (sub?.mutability !== 'immutable') return;
  throw scimErrors.mutability(
    `"members.${sub.name}" is immutable: a member is added or removed whole, never changed.`,
  );
}

// An `add` or `replace` with a filter changes the members it matches in place: it may restate
// them, or add one the filter names (dialect rule `filterMissCreates`), but a member whose id
// is not the filter's `value eq` id would re-point a matched membership (or retype it, under
// another filter), and a member's `value` is immutable.
function refuseRepointing(op: string, ids: string[] | undefined, given: MemberInput[]): void {
  if (ids && given.every((m) => ids.includes(m.value))) return;
  throw scimErrors.mutability(
    `"${op}" of "members[...]" would change a member in place, and a member's "value" is immutable: remove the member and add another.`,
  );
}

// Whether a path-less value's key names the members: `members`, or the core URN's (dialect
// rule `urnKeys`, as the engine reads such keys).
function namesMembers(key: string, ctx: PatchContext, membersDef: AttributeDefinition): boolean {
  if (key.toLowerCase() === 'members') return true;
  const core = ctx.index.core.id;
  return (
    ctx.rules.urnKeys &&
    key.length === core.length + 8 &&
    key.slice(0, core.length).toLowerCase() === core.toLowerCase() &&
    ctx.index.attribute(ctx.index.core, key.slice(core.length + 1)) === membersDef
  );
}

/**
 * Reads member values with the Group's value rules (as the PATCH engine and POST do): each
 * must carry a `value`; `display`, readOnly, is ignored; `type` and `$ref` are the server's to
 * decide from where the id lives.
 */
export function readMembers(
  value: unknown,
  ctx: PatchContext,
  membersDef: AttributeDefinition,
): MemberInput[] {
  const list = coerceMany(membersDef, value, ctx, 'members') ?? [];
  return list.map((item) => {
    const id = isJsonObject(item) ? item.value : undefined;
    if (typeof id !== 'string' || id === '')
      throw scimErrors.invalidValue('Each of "members" must have a "value": the member\'s id.');
    return { value: id };
  });
}

// The ids of `value eq "id"` (or several joined by `or`), the filter every IdP removes a
// member with; `undefined` for any other filter (it needs the list).
function memberIdsOf(
  filter: Filter,
  ctx: PatchContext,
  membersDef: AttributeDefinition,
): string[] | undefined {
  if (filter.kind === 'or') {
    const left = memberIdsOf(filter.left, ctx, membersDef);
    const right = left && memberIdsOf(filter.right, ctx, membersDef);
    return right && [...(left as string[]), ...right];
  }
  if (filter.kind !== 'compare' || filter.op !== 'eq' || typeof filter.value !== 'string')
    return undefined;
  const { path } = filter;
  if (path.schema !== undefined || path.subAttribute !== undefined) return undefined;
  const sub = ctx.index.resolve({ attribute: path.attribute }, membersDef);
  // `value` is caseExact: the id as written is the one member it finds.
  if (sub?.attribute.name !== 'value' || sub.attribute.caseExact !== true) return undefined;
  return [filter.value];
}
