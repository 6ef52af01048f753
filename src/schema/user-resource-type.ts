import type { DialectRuleName } from './dialect-rules.js';
import { compileResourceType, type CompiledResourceType } from './resource-type.js';
import type { SchemaDefinition } from './types.js';
import { accountSchema, enterpriseUserSchema, userSchema } from './user-schema.js';

/** Options of {@link userResourceType}. */
export interface UserResourceTypeOptions {
  /** The host's extension schemas, listed after the Enterprise User extension. */
  readonly extensions?: readonly SchemaDefinition[];
  /** Dialect rules to switch off (`false`). */
  readonly rules?: Partial<Record<DialectRuleName, boolean>>;
}

/**
 * Compiles the User resource type: the core User, the Enterprise User extension, the host's
 * extensions and scimkit's account extension, in that order. The one default schema list:
 * `createScim` and the stores (when given no resource type) compile it here.
 *
 * @example
 * ```ts
 * const users = userResourceType({ extensions: [districtSchema] });
 * matchesFilter(user, parseFilter('userName eq "bjensen"'), users);
 * ```
 */
export function userResourceType(options: UserResourceTypeOptions = {}): CompiledResourceType {
  return compileResourceType({
    name: 'User',
    endpoint: '/Users',
    description: 'User Account',
    schema: userSchema,
    extensions: [enterpriseUserSchema, ...(options.extensions ?? []), accountSchema],
    ...(options.rules === undefined ? {} : { rules: options.rules }),
  });
}
