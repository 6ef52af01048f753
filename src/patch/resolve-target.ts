import { scimErrors } from '../errors/index.js';
import { compileElementFilter, valueLookupsOf } from './match-element.js';
import { parsePatchPath } from './parse-patch-path.js';
import { rememberPath } from './patch-context.js';
import type { PatchContext, PatchPath, Resolved } from './types.js';
import { previewJson } from '../json/preview-json.js';

/**
 * Parses and resolves a PATCH path's text, or returns what the same text resolved to before in
 * this context.
 *
 * @throws ScimError 400 `invalidPath` (nothing is remembered for a path that fails).
 */
export function resolvePath(ctx: PatchContext, path: string): Resolved {
  return (
    ctx.paths.get(path) ?? rememberPath(ctx, path, resolveTarget(parsePatchPath(path), ctx, path))
  );
}

/**
 * Resolves a parsed PATCH path against the resource's schemas: names match regardless of case,
 * a path without a URN names a core attribute, a value filter needs a multi-valued complex
 * attribute and may only name its sub-attributes.
 *
 * @throws ScimError 400 `invalidPath` when the path names no attribute of the schemas.
 * @see RFC 7644 §3.5.2, §3.10
 */
export function resolveTarget(path: PatchPath, ctx: PatchContext, label: string): Resolved {
  const { index } = ctx;
  let schema = index.core;
  if (path.schema !== undefined) {
    const whole = index.byUrn.get(`${path.schema}:${path.attribute}`.toLowerCase());
    if (whole && whole !== index.core && !path.filter && path.subAttribute === undefined) {
      return { kind: 'extension', schema: whole };
    }
    const found = index.byUrn.get(path.schema.toLowerCase());
    if (!found)
      throw scimErrors.invalidPath(
        `The path ${previewJson(label)} names an unknown schema ${previewJson(path.schema)}.`,
      );
    schema = found;
  }
  const attr = index.attribute(schema, path.attribute);
  if (!attr)
    throw scimErrors.invalidPath(
      `The path ${previewJson(label)} names no attribute of ${schema.name}.`,
    );
  let sub;
  if (path.subAttribute !== undefined) {
    sub = attr.type === 'complex' ? index.subAttribute(attr, path.subAttribute) : undefined;
    if (!sub)
      throw scimErrors.invalidPath(
        `The path ${previewJson(label)}: "${attr.name}" has no sub-attribute ${previewJson(path.subAttribute)}.`,
      );
  }
  let predicate;
  let lookups;
  if (path.filter) {
    if (!attr.multiValued || attr.type !== 'complex') {
      throw scimErrors.invalidPath(
        `The path "${label}" filters "${attr.name}", which is not a multi-valued complex attribute.`,
      );
    }
    predicate = compileElementFilter(path.filter, attr, index, ctx.rules.stringBooleans);
    lookups = valueLookupsOf(path.filter, attr, index, ctx.rules.stringBooleans);
  }
  return {
    kind: 'attribute',
    target: { schema, attr, sub, filter: path.filter, predicate, lookups, label },
  };
}
