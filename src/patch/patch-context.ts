import type { PatchContext, PatchOptions, Resolved } from './types.js';
import { DEFAULT_MAX_PATCH_WORK } from './work-meter.js';

// coerce-value.ts reads the type from here.
export type { PatchContext } from './types.js';

/** How many resolved paths a context keeps; IdPs send a handful of distinct ones. */
const MAX_REMEMBERED_PATHS = 256;

/** The key of PATCH's resolved paths in a resource type's `memory`. */
const RESOLVED_PATHS = Symbol('PATCH resolved paths');

/**
 * Builds the context PATCHes apply in: the compiled resource type, its rules, the limits and the
 * paths already resolved for this type (kept on the type, so every call with it shares them).
 * `createScim` builds one and reuses it for every request.
 */
export function patchContext(options: PatchOptions): PatchContext {
  const type = options.resourceType;
  return {
    index: type,
    rules: type.rules,
    maxOperations: options.maxOperations ?? 1000,
    maxWork: options.maxWork ?? DEFAULT_MAX_PATCH_WORK,
    paths: type.memory<Resolved>(RESOLVED_PATHS),
    shapes: type.shapes,
    // Present though empty, so a request's traced copy has the same shape as this context.
    trace: undefined,
  };
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
