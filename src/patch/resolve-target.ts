import { scimErrors } from '../errors/index.js';
import { compileElementFilter, valueLookupsOf, type LiteralHeard } from './match-element.js';
import { parsePatchPath } from './parse-patch-path.js';
import type { PatchContext, PatchPath, Resolved } from './types.js';
import { previewJson } from '../json/preview-json.js';
import { SCHEMAS_ATTRIBUTE } from '../schema/schemas-attribute.js';
import { isIdReference } from '../schema/value-shape.js';
import { unquotedValue, type FiredRule } from '../schema/dialect-rules.js';

/**
 * Parses and resolves a PATCH path's text. The dialect rules reading the path took are reported
 * to `ctx.trace`.
 *
 * @throws ScimError 400 `invalidPath`.
 */
export function resolvePath(ctx: PatchContext, path: string): Resolved {
  const resolved = resolveText(ctx, path);
  const fired = resolved.kind === 'attribute' ? resolved.target.fired : undefined;
  if (fired && ctx.trace) for (const rule of fired) ctx.trace(rule);
  return resolved;
}

// Resolves a path's text, noting the rules its value filter was read with (`where` `.path`):
// values without quotes (`unquotedFilterValues`), `"True"` for a boolean (`stringBooleans`).
function resolveText(ctx: PatchContext, path: string): Resolved {
  const extension = ctx.index.extensionNamed(path);
  if (extension) return { kind: 'extension', schema: extension };
  const fired: FiredRule[] = [];
  const options = ctx.rules.unquotedFilterValues
    ? {
        unquotedValues: true,
        onBareValue: (word: string) => fired.push(unquotedValue('.path', word)),
      }
    : undefined;
  const resolved = resolveTarget(parsePatchPath(path, options), ctx, path, fired);
  if (fired.length === 0 || resolved.kind !== 'attribute') return resolved;
  return { kind: 'attribute', target: { ...resolved.target, fired } };
}

/**
 * Resolves a parsed PATCH path against the resource's schemas: names match regardless of case,
 * a path without a URN names a core attribute, a value filter needs a multi-valued complex
 * attribute and may only name its sub-attributes.
 *
 * @throws ScimError 400 `invalidPath` when the path names no attribute of the schemas.
 * @see RFC 7644 §3.5.2, §3.10
 */
export function resolveTarget(
  path: PatchPath,
  ctx: PatchContext,
  label: string,
  fired?: FiredRule[],
): Resolved {
  const { index } = ctx;
  const heard = fired && literalsHeard(fired);
  if (path.schema !== undefined && !index.schema(path.schema)) {
    throw scimErrors.invalidPath(
      `The path ${previewJson(label)} names an unknown schema ${previewJson(path.schema)}.`,
    );
  }
  const resolved = index.resolve(path);
  if (!resolved && path.filter && ctx.rules.managerValueFilter) {
    const reference = filteredReference(path, ctx, label, heard);
    if (reference) return reference;
  }
  // The common `schemas` attribute is the server's to write (RFC 7643 §3): no PATCH target.
  if (!resolved || resolved.attribute === SCHEMAS_ATTRIBUTE) {
    const schema = (path.schema !== undefined && index.schema(path.schema)) || index.core;
    const attr = index.attribute(schema, path.attribute);
    if (attr && path.subAttribute !== undefined)
      throw scimErrors.invalidPath(
        `The path ${previewJson(label)}: "${attr.name}" has no sub-attribute ${previewJson(path.subAttribute)}.`,
      );
    throw scimErrors.invalidPath(
      `The path ${previewJson(label)} names no attribute of ${schema.name}.`,
    );
  }
  const schema = resolved.extension ?? index.core;
  const attr = resolved.attribute;
  const sub = resolved.subAttribute;
  let predicate;
  let lookups;
  if (path.filter) {
    if (!attr.multiValued || attr.type !== 'complex') {
      throw scimErrors.invalidPath(
        `The path "${label}" filters "${attr.name}", which is not a multi-valued complex attribute.`,
      );
    }
    predicate = compileElementFilter(path.filter, attr, index, ctx.rules.stringBooleans, heard);
    lookups = valueLookupsOf(path.filter, attr, index, ctx.rules.stringBooleans);
  }
  return {
    kind: 'attribute',
    target: { schema, attr, sub, filter: path.filter, predicate, lookups, label },
  };
}

// Dialect rule `managerValueFilter`: Entra ID's `manager[value eq "<id>"]`, unqualified and
// filtered though `manager` is a singular attribute of the Enterprise extension. The filter is
// tested against the one value; only `remove` accepts such a target (`setSingular` refuses it).
function filteredReference(
  path: PatchPath,
  ctx: PatchContext,
  label: string,
  heard: LiteralHeard | undefined,
): Resolved | undefined {
  if (path.schema !== undefined || path.subAttribute !== undefined || !path.filter)
    return undefined;
  const { index } = ctx;
  for (const schema of index.extensions) {
    const attr = index.attribute(schema, path.attribute);
    if (!attr || !isIdReference(attr)) continue;
    const predicate = compileElementFilter(
      path.filter,
      attr,
      index,
      ctx.rules.stringBooleans,
      heard,
    );
    return { kind: 'attribute', target: { schema, attr, filter: path.filter, predicate, label } };
  }
  return undefined;
}

// `primary eq "True"` read as `primary eq true`, noted where the path is.
function literalsHeard(fired: FiredRule[]): LiteralHeard {
  return (received, became) =>
    fired.push({ rule: 'stringBooleans', where: '.path', received, became });
}
