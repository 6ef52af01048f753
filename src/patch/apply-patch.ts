import { ScimError, isScimError, scimErrors } from '../errors/index.js';
import type { SchemaDefinition } from '../schema/types.js';
import { applyToTarget, type Target } from './apply-to-target.js';
import { isObject } from './coerce-value.js';
import { deepEqual } from './deep-equal.js';
import { Draft } from './draft.js';
import { parsePatchPath } from './parse-patch-path.js';
import type { PatchContext } from './patch-context.js';
import { resolveRules } from './resolve-rules.js';
import { resolveTarget, type Resolved } from './resolve-target.js';
import { schemaIndex } from './schema-index.js';
import { PATCH_OP_SCHEMA, type PatchOpName, type PatchOptions, type PatchResult } from './types.js';

type Json = Record<string, unknown>;

const OPS: ReadonlySet<string> = new Set<PatchOpName>(['add', 'remove', 'replace']);

/**
 * Applies a SCIM PatchOp message to a resource: every operation of RFC 7644 §3.5.2 (`add`,
 * `remove`, `replace`; with or without `path`; attribute, sub-attribute, schema-URN and
 * value-filter paths) plus the identity-provider dialect rules of {@link PatchOptions.rules}.
 * Pure and synchronous: the input is never mutated, all operations apply or none do, and
 * `meta` is left to the caller.
 *
 * @throws ScimError 400 (`invalidSyntax`, `invalidPath`, `noTarget`, `mutability`,
 *   `invalidValue`, `tooMany`) and changes nothing.
 * @see RFC 7644 §3.5.2
 * @example
 * ```ts
 * const { resource, changed } = applyPatch(user, {
 *   schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
 *   Operations: [{ op: 'replace', path: 'active', value: false }],
 * }, { schemas: [userSchema, enterpriseUserSchema, accountSchema] });
 * ```
 */
export function applyPatch(
  resource: Readonly<Json>,
  body: unknown,
  options: PatchOptions,
): PatchResult {
  const index = schemaIndex(options.schemas);
  const ctx: PatchContext = { index, rules: resolveRules(options.rules) };
  const operations = readMessage(body, options.maxOperations ?? 1000);
  const draft = new Draft(resource, index);
  for (let i = 0; i < operations.length; i++) {
    try {
      applyOperation(draft, ctx, operations[i]);
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
      isObject(before) &&
      before[attr.name] != null &&
      !(isObject(after) && after[attr.name] != null)
    ) {
      // RFC 7644 §3.5.2: leaving a required attribute unassigned is a mutability error.
      throw scimErrors.mutability(`"${attr.name}" is required and cannot be removed.`);
    }
  }
  return { resource: result, changed: differs(resource, result) };
}

/** Reads a member of a message object, matching its name regardless of case (RFC 7643 §2.1). */
function member(o: Json, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function hasMember(o: Json, name: string): boolean {
  if (name in o) return true;
  return Object.keys(o).some((k) => k.toLowerCase() === name);
}

function readMessage(body: unknown, max: number): unknown[] {
  if (!isObject(body))
    throw scimErrors.invalidSyntax('The PATCH body must be a PatchOp message object.');
  const schemas = member(body, 'schemas');
  const lower = PATCH_OP_SCHEMA.toLowerCase();
  if (
    !Array.isArray(schemas) ||
    !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === lower)
  ) {
    throw scimErrors.invalidSyntax(`"schemas" must contain "${PATCH_OP_SCHEMA}".`);
  }
  const operations = member(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) {
    throw scimErrors.invalidSyntax('"Operations" must be an array of one or more operations.');
  }
  if (operations.length > max) {
    throw scimErrors.tooMany(
      `A PATCH may carry at most ${max} operations; this one has ${operations.length}.`,
    );
  }
  return operations;
}

function applyOperation(draft: Draft, ctx: PatchContext, raw: unknown): void {
  if (!isObject(raw))
    throw scimErrors.invalidSyntax('An operation must be an object with an "op".');
  const rawOp = member(raw, 'op');
  const op = typeof rawOp === 'string' && ctx.rules.opAnyCase ? rawOp.toLowerCase() : rawOp;
  if (typeof op !== 'string' || !OPS.has(op)) {
    throw scimErrors.invalidSyntax(
      `"op" must be "add", "remove" or "replace", not ${JSON.stringify(rawOp)}.`,
    );
  }
  const name = op as PatchOpName;
  const path = member(raw, 'path');
  const value = member(raw, 'value');
  const hasValue = hasMember(raw, 'value');
  if (path !== undefined && path !== null && typeof path !== 'string') {
    throw scimErrors.invalidPath('"path" must be a string.');
  }
  if (path === undefined || path === null || path.trim() === '') {
    if (name === 'remove')
      throw scimErrors.noTarget('"remove" needs a "path" (RFC 7644 §3.5.2.2).');
    if (!isObject(value))
      throw scimErrors.invalidValue(`"${name}" without a "path" needs an object "value".`);
    applyObject(draft, ctx, name, ctx.index.core, value);
    return;
  }
  apply(draft, ctx, name, resolveTarget(parsePatchPath(path), ctx, path), value, hasValue);
}

function apply(
  draft: Draft,
  ctx: PatchContext,
  op: PatchOpName,
  to: Resolved,
  value: unknown,
  hasValue: boolean,
): void {
  if (to.kind === 'attribute') {
    applyToTarget(draft, ctx, op, to.target, value, hasValue);
  } else if (op === 'remove' || value === null) {
    if (op !== 'remove' && !ctx.rules.nullClears)
      throw scimErrors.invalidValue(`"${to.schema.id}" must not be null.`);
    for (const attr of to.schema.attributes) {
      if (draft.peek(to.schema)?.[attr.name] !== undefined) {
        applyToTarget(
          draft,
          ctx,
          'remove',
          { schema: to.schema, attr, label: `${to.schema.id}:${attr.name}` },
          undefined,
          false,
        );
      }
    }
  } else {
    if (!isObject(value))
      throw scimErrors.invalidValue(`"${to.schema.id}" must be an object of attributes.`);
    applyObject(draft, ctx, op, to.schema, value);
  }
}

/**
 * Applies a path-less value: each key names an attribute of `schema` (any case), an extension
 * URN holding an object, or (by dialect rule) a dotted or URN-qualified path. Keys that name
 * nothing we model are ignored, never rejected.
 */
function applyObject(
  draft: Draft,
  ctx: PatchContext,
  op: PatchOpName,
  schema: SchemaDefinition,
  value: Json,
): void {
  const { index } = ctx;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (schema === index.core) {
      const ext = index.byUrn.get(key.toLowerCase());
      if (ext) {
        if (ext === index.core) {
          if (isObject(v)) applyObject(draft, ctx, op, ext, v);
        } else apply(draft, ctx, op, { kind: 'extension', schema: ext }, v, true);
        continue;
      }
    }
    const qualified = key.length > 4 && key.slice(0, 4).toLowerCase() === 'urn:';
    const dotted = !qualified && key.includes('.');
    let to: Resolved | undefined;
    if (qualified || dotted) {
      if (qualified ? !ctx.rules.urnKeys : !ctx.rules.dottedKeys) continue;
      to = tryResolve(schema === index.core ? key : `${schema.id}:${key}`, ctx);
    } else {
      const attr = index.attribute(schema, key);
      if (attr) to = { kind: 'attribute', target: { schema, attr, label: key } };
    }
    if (!to) continue;
    if (to.kind === 'attribute' && isReadOnly(to.target)) {
      // Restating a readOnly attribute's current value (IdPs echo `id`) changes nothing.
      if (sameState(current(draft, to.target), v)) continue;
    }
    apply(draft, ctx, op, to, v, true);
  }
}

function tryResolve(path: string, ctx: PatchContext): Resolved | undefined {
  try {
    const parsed = parsePatchPath(path);
    return parsed.filter ? undefined : resolveTarget(parsed, ctx, path);
  } catch (error) {
    if (isScimError(error) && error.scimType === 'invalidPath') return undefined;
    throw error;
  }
}

function isReadOnly(t: Target): boolean {
  return t.attr.mutability === 'readOnly' || t.sub?.mutability === 'readOnly';
}

function current(draft: Draft, t: Target): unknown {
  const v = draft.peek(t.schema)?.[t.attr.name];
  return t.sub && isObject(v) ? v[t.sub.name] : v;
}

/** Compares two values as states: `null`, `[]` and absent all mean unassigned (RFC 7643 §2.5). */
function sameState(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === null || (Array.isArray(v) && v.length === 0) ? undefined : v);
  return deepEqual(norm(a), norm(b));
}

function differs(a: Readonly<Json>, b: Json): boolean {
  const keys = Object.keys(b);
  if (keys.length !== Object.keys(a).length) return true;
  for (const k of keys) {
    if (!Object.hasOwn(a, k)) return true;
    if (a[k] !== b[k] && !deepEqual(a[k], b[k])) return true;
  }
  return false;
}
