import type { PatchContext, PatchOptions } from './types.js';
import { DEFAULT_MAX_PATCH_WORK } from './work-meter.js';

// coerce-value.ts reads the type from here.
export type { PatchContext } from './types.js';

/**
 * Builds the context PATCHes apply in: the compiled resource type, its rules and the limits.
 * `createScim` builds one and reuses it for every request.
 */
export function patchContext(options: PatchOptions): PatchContext {
  const type = options.resourceType;
  return {
    index: type,
    rules: type.rules,
    maxOperations: options.maxOperations ?? 1000,
    maxWork: options.maxWork ?? DEFAULT_MAX_PATCH_WORK,
    shapes: type.shapes,
    // Present though empty, so a request's traced copy has the same shape as this context.
    trace: undefined,
  };
}
