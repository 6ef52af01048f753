import { isJsonObject, jsonEqual } from '../json/json-value.js';
import { isScimError } from '../errors/index.js';
import type { SchemaDefinition } from '../schema/types.js';
import type { RuleTrace } from '../schema/dialect-rules.js';
import { applyToTarget } from './apply-to-target.js';
import type { Draft } from './draft.js';
import { parsePatchPath, pathOptionsOf } from './parse-patch-path.js';
import { resolveTarget } from './resolve-target.js';
import type { PatchOperation } from './patch-operation.js';
import type { PatchContext, Resolved, Target } from './types.js';

type Json = Record<string, unknown>;

/**
 * Applies one operation to what its path resolved to: an attribute, or a whole extension
 * (what that means is the operation's own).
 */
export function applyResolved(
  draft: Draft,
  ctx: PatchContext,
  op: PatchOperation,
  to: Resolved,
  value: unknown,
  hasValue: boolean,
): void {
  if (to.kind === 'attribute') applyToTarget(draft, ctx, op, to.target, value, hasValue);
  else op.extension(draft, ctx, to.schema, value);
}

/**
 * Applies a path-less value: each key names an attribute of `schema` (any case), an extension
 * URN holding an object, or (by dialect rule) a dotted or URN-qualified path. Keys that name
 * nothing we model are ignored, never rejected.
 */
export function applyObject(
  draft: Draft,
  ctx: PatchContext,
  op: PatchOperation,
  schema: SchemaDefinition,
  value: Json,
): void {
  const { index } = ctx;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (schema === index.core) {
      const ext = index.schema(key);
      if (ext) {
        if (ext === index.core) {
          if (isJsonObject(v)) applyObject(draft, ctx, op, ext, v);
        } else applyResolved(draft, ctx, op, { kind: 'extension', schema: ext }, v, true);
        continue;
      }
    }
    const qualified = key.length > 4 && key.slice(0, 4).toLowerCase() === 'urn:';
    const dotted = !qualified && key.includes('.');
    let to: Resolved | undefined;
    if (qualified || dotted) {
      if (qualified ? !ctx.rules.urnKeys : !ctx.rules.dottedKeys) continue;
      to = tryResolve(schema === index.core ? key : `${schema.id}:${key}`, ctx);
      if (to && ctx.trace) traceKey(ctx.trace, qualified, key, to);
    } else {
      const attr = index.attribute(schema, key);
      if (attr) to = { kind: 'attribute', target: { schema, attr, label: key } };
    }
    if (!to) continue;
    if (to.kind === 'attribute' && isReadOnly(to.target)) {
      // Restating a readOnly attribute's current value (IdPs echo `id`) changes nothing.
      if (sameState(current(draft, to.target), v)) continue;
    }
    applyResolved(draft, ctx, op, to, v, true);
  }
}

// A dotted or URN key read as the attribute path it names, as its canonical spelling.
function traceKey(trace: RuleTrace, qualified: boolean, key: string, to: Resolved): void {
  let became: string;
  if (to.kind === 'extension') became = to.schema.id;
  else {
    const { schema, attr, sub } = to.target;
    const name = sub ? `${attr.name}.${sub.name}` : attr.name;
    became = qualified ? `${schema.id}:${name}` : name;
  }
  trace({
    rule: qualified ? 'urnKeys' : 'dottedKeys',
    where: `.value.${key}`,
    received: key,
    became,
  });
}

function tryResolve(path: string, ctx: PatchContext): Resolved | undefined {
  try {
    const parsed = parsePatchPath(path, pathOptionsOf(ctx.rules));
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
  const v = draft.read(t.schema, t.attr);
  return t.sub && isJsonObject(v) ? v[t.sub.name] : v;
}

/** Compares two values as states: `null`, `[]` and absent all mean unassigned (RFC 7643 §2.5). */
function sameState(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === null || (Array.isArray(v) && v.length === 0) ? undefined : v);
  return jsonEqual(norm(a), norm(b));
}
