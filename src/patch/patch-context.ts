import { compileShapes } from '../schema/value-shape.js';
import { resolveRules } from './resolve-rules.js';
import { schemaIndex } from './schema-index.js';
import type { PatchContext, PatchOptions, Resolved } from './types.js';

// coerce-value.ts reads the type from here.
export type { PatchContext } from './types.js';

/** How many resolved paths a context keeps; IdPs send a handful of distinct ones. */
const MAX_REMEMBERED_PATHS = 256;

const contexts = new WeakMap<PatchOptions, PatchContext>();

/** Returns the context of `options`, building it on first use (and again if its schemas or rules were swapped). */
export function patchContext(options: PatchOptions): PatchContext {
  const index = schemaIndex(options.schemas);
  const rules = resolveRules(options.rules);
  let ctx = contexts.get(options);
  if (ctx?.index !== index || ctx.rules !== rules) {
    ctx = { index, rules, paths: new Map(), shapes: compileShapes(options.schemas, rules) };
    contexts.set(options, ctx);
  }
  return ctx;
}

/**
 * Keeps what a path resolved to, for the next operation that names it. Resolution depends only
 * on the path's text and the context, and its result is never changed, so it can be shared.
 * The cache is bounded: a client sending ever new paths (value filters with ever new values)
 * empties it now and then instead of growing it.
 */
export function rememberPath(ctx: PatchContext, path: string, resolved: Resolved): Resolved {
  if (ctx.paths.size >= MAX_REMEMBERED_PATHS) ctx.paths.clear();
  ctx.paths.set(path, resolved);
  return resolved;
}
