import { isJsonObject, jsonMembersEqual } from '../json/json-value.js';
import { ScimError, isScimError, scimErrors } from '../errors/index.js';
import { add } from './add.js';
import { applyResolved } from './apply-value.js';
import { Draft } from './draft.js';
import type { KeptApart } from './kept-apart.js';
import { patchContext } from './patch-context.js';
import { hasMember, member, opName, readMessage } from './read-patch-message.js';
import type { PatchOperation } from './patch-operation.js';
import { remove } from './remove.js';
import { replace } from './replace.js';
import { resolvePath } from './resolve-target.js';
import type { PatchContext, PatchOpName, PatchOptions, PatchResult } from './types.js';
import type { RuleTrace } from '../schema/dialect-rules.js';
import { patchWorkMeter } from './work-meter.js';

type Json = Record<string, unknown>;

const OPERATIONS: ReadonlyMap<string, PatchOperation> = new Map<PatchOpName, PatchOperation>([
  ['add', add],
  ['remove', remove],
  ['replace', replace],
]);

/**
 * Applies a SCIM PatchOp message to a resource: every operation of RFC 7644 §3.5.2 (`add`,
 * `remove`, `replace`; with or without `path`; attribute, sub-attribute, schema-URN and
 * value-filter paths) plus the identity-provider dialect rules in force for the resource type
 * (`CompiledResourceType.rules`).
 * Pure and synchronous: the input is never mutated, all operations apply or none do, and
 * `meta` is left to the caller.
 *
 * Its cost is about linear in the operations plus the values they touch: each multi-valued
 * attribute is copied once per request, and a value filter with an `eq` (`roles[value eq "x"]`)
 * is answered from an index. Whatever remains is bounded by {@link PatchOptions.maxWork}.
 *
 * @throws ScimError 400 (`invalidSyntax`, `invalidPath`, `noTarget`, `mutability`,
 *   `invalidValue`, `tooMany`) and changes nothing; `invalidValue` also when the work budget
 *   is spent.
 * @see RFC 7644 §3.5.2
 * @example
 * ```ts
 * const { resource, changed } = applyPatch(user, {
 *   schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
 *   Operations: [{ op: 'replace', path: 'active', value: false }],
 * }, { resourceType: userResourceType() });
 * ```
 */
export function applyPatch(
  resource: Readonly<Json>,
  body: unknown,
  options: PatchOptions,
): PatchResult {
  return applyPatchIn(patchContext(options), resource, body);
}

/**
 * Applies a PatchOp message in a context built once (see `patchContext`), as
 * {@link applyPatch} does. With `keptApart`, the operations on that attribute are planned into
 * its delta plan instead (see `planPatch`).
 *
 * @throws ScimError 400 as {@link applyPatch}.
 */
export function applyPatchIn(
  ctx: PatchContext,
  resource: Readonly<Json>,
  body: unknown,
  keptApart?: KeptApart,
): PatchResult {
  const { index } = ctx;
  const operations = readMessage(body, ctx.maxOperations, ctx.rules.emptyOperations);
  const draft = new Draft(resource, index, patchWorkMeter(ctx.maxWork), keptApart);
  const { trace } = ctx;
  if (trace && operations.length === 0)
    trace({ rule: 'emptyOperations', where: 'Operations', received: [], became: 'no change' });
  for (let i = 0; i < operations.length; i++) {
    try {
      // While someone listens, each operation reports its rules where it is, `Operations[i]`.
      const at = trace && { ...ctx, trace: traceAt(trace, `Operations[${i}]`) };
      applyOperation(draft, at || ctx, operations[i]);
    } catch (error) {
      if (!isScimError(error)) throw error;
      throw new ScimError(error.status, `Operation ${i + 1}: ${error.detail}`, {
        scimType: error.scimType,
      });
    }
  }
  const result = draft.finish();
  for (const [schema, attr] of index.required) {
    const before = schema === index.core ? resource : resource[schema.id];
    const after = schema === index.core ? result : result[schema.id];
    if (
      isJsonObject(before) &&
      before[attr.name] != null &&
      !(isJsonObject(after) && after[attr.name] != null)
    ) {
      // RFC 7644 §3.5.2: leaving a required attribute unassigned is a mutability error.
      throw scimErrors.mutability(`"${attr.name}" is required and cannot be removed.`);
    }
  }
  return {
    resource: result,
    changed: !jsonMembersEqual(resource, result),
    writeOnly: draft.writeOnly,
  };
}

/** Reports each rule an operation fires with `where` under the operation's own place. */
export function traceAt(trace: RuleTrace, prefix: string): RuleTrace {
  return (fired) => trace({ ...fired, where: `${prefix}${fired.where}` });
}

function applyOperation(draft: Draft, ctx: PatchContext, raw: unknown): void {
  if (!isJsonObject(raw))
    throw scimErrors.invalidSyntax('An operation must be an object with an "op".');
  const rawOp = member(raw, 'op');
  const op = opName(rawOp, ctx, ctx.trace);
  const operation = typeof op === 'string' ? OPERATIONS.get(op) : undefined;
  if (!operation) {
    throw scimErrors.invalidSyntax(
      `"op" must be "add", "remove" or "replace", not ${JSON.stringify(rawOp)}.`,
    );
  }
  const path = member(raw, 'path');
  const value = member(raw, 'value');
  if (path !== undefined && path !== null && typeof path !== 'string') {
    throw scimErrors.invalidPath('"path" must be a string.');
  }
  if (path === undefined || path === null || path.trim() === '') {
    operation.pathLess(draft, ctx, value);
    return;
  }
  applyResolved(draft, ctx, operation, resolvePath(ctx, path), value, hasMember(raw, 'value'));
}
