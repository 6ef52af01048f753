export { ScimError, isScimError } from './scim-error.js';
export type { ScimType, ScimErrorBody, ScimErrorOptions } from './scim-error.js';
export { scimErrors, toScimError } from './factories.js';
export { ScimConfigError } from './config-error.js';
