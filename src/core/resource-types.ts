import { accountSchema, enterpriseUserSchema, userSchema } from '../schema/user-schema.js';
import type { SchemaDefinition } from '../schema/types.js';
import { checkExtensions } from './check-extensions.js';

/**
 * Describes one resource type the core serves: its RFC 7643 §6 name and endpoint and its
 * schemas, the core schema first, then its extensions.
 *
 * @see RFC 7643 §6
 */
export interface ResourceTypeDescription {
  /** The resource type's name, such as `User`; also its id at `/ResourceTypes/{id}`. */
  readonly name: string;
  /** Its endpoint below the base path, such as `/Users`. */
  readonly endpoint: string;
  /** A human-readable description. */
  readonly description?: string;
  /** Its schemas: the core schema first, then every extension. */
  readonly schemas: readonly SchemaDefinition[];
}

/** The User resource type's name, endpoint and description, as `/ResourceTypes/User` gives them. */
export const USER_RESOURCE_TYPE = {
  name: 'User',
  endpoint: '/Users',
  description: 'User Account',
} as const;

/**
 * Describes the User resource type the core serves: the core User, the Enterprise User
 * extension, the host's extensions and the account extension, in that order. `createScim`
 * builds its User from it, so every description of the service names the same schemas.
 *
 * @throws ScimConfigError when an extension has no unique `urn:` id or an invalid attribute name.
 */
export function userResourceType(
  extensions: readonly SchemaDefinition[] = [],
): ResourceTypeDescription {
  checkExtensions([userSchema, enterpriseUserSchema, accountSchema], extensions);
  return {
    ...USER_RESOURCE_TYPE,
    schemas: [userSchema, enterpriseUserSchema, ...extensions, accountSchema],
  };
}

/**
 * Lists every resource type the core serves, given the host's User extensions. Groups join
 * this list when the core serves them.
 */
export function builtInResourceTypes(
  extensions: readonly SchemaDefinition[] = [],
): readonly ResourceTypeDescription[] {
  return [userResourceType(extensions)];
}
