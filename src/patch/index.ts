/**
 * scimkit/patch: the PatchOp engine (RFC 7644 §3.5.2), pure and synchronous. It applies a
 * PATCH body to a copy of a resource, all operations or none, resolving every path through a
 * compiled resource type (`compileResourceType`, `userResourceType` from `scimkit`).
 *
 * @module
 * @example
 * ```ts
 * import { userResourceType } from 'scimkit';
 * import { applyPatch } from 'scimkit/patch';
 *
 * const { resource, changed } = applyPatch(user, body, { resourceType: userResourceType() });
 * ```
 */
export { applyPatch } from './apply-patch.js';
export { parsePatchPath } from './parse-patch-path.js';
export type { PatchOpName, PatchOptions, PatchPath, PatchResult } from './types.js';
