export { applyPatch } from './apply-patch.js';
export { compileResourceType } from '../schema/resource-type.js';
export type { CompiledResourceType, ResourceTypeDefinition } from '../schema/resource-type.js';
export { userResourceType } from '../schema/user-resource-type.js';
export { parsePatchPath } from './parse-patch-path.js';
export { DIALECT_RULES, PATCH_OP_SCHEMA } from './types.js';
export type {
  DialectRuleName,
  PatchOpName,
  PatchOptions,
  PatchPath,
  PatchResult,
} from './types.js';
