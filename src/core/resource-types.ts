import type { DialectRuleName } from '../schema/dialect-rules.js';
import { groupSchema } from '../schema/group-schema.js';
import { compileResourceType, type CompiledResourceType } from '../schema/resource-type.js';
import type { SchemaDefinition } from '../schema/types.js';
import { userResourceType } from '../schema/user-resource-type.js';
import { accountSchema, enterpriseUserSchema, userSchema } from '../schema/user-schema.js';
import { checkExtensions } from './check-extensions.js';

/**
 * Describes one resource type the core serves: its RFC 7643 §6 name and endpoint and its
 * schemas, the core schema first, then its extensions. A `CompiledResourceType` is one.
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

/** What the built-in resource types depend on: the `createScim` options of the same names. */
export interface BuiltInTypeOptions {
  /** The host's User extensions. */
  readonly extensions?: readonly SchemaDefinition[] | undefined;
  /** Dialect rules switched off (`false`). */
  readonly patchRules?: Partial<Record<DialectRuleName, boolean>> | undefined;
  /** The store: Groups are served exactly when it keeps groups (has `groups`). */
  readonly store?: { readonly groups?: unknown } | undefined;
}

/**
 * Compiles the User resource type the core serves, after checking the host's extensions: the
 * core User, the Enterprise User extension, the host's extensions and the account extension.
 * `createScim`, discovery and the OpenAPI document all name the schemas it lists.
 *
 * @throws ScimConfigError when an extension has no unique `urn:` id or an invalid attribute name.
 */
export function compileUserType(options: BuiltInTypeOptions = {}): CompiledResourceType {
  const extensions = options.extensions ?? [];
  checkExtensions([userSchema, enterpriseUserSchema, accountSchema], extensions);
  return userResourceType({
    extensions,
    ...(options.patchRules === undefined ? {} : { rules: options.patchRules }),
  });
}

/**
 * Compiles the Group resource type the core serves (RFC 7643 §4.2), with the same dialect
 * rules as the User's.
 */
export function compileGroupType(options: BuiltInTypeOptions = {}): CompiledResourceType {
  return compileResourceType({
    name: 'Group',
    endpoint: '/Groups',
    description: 'Group',
    schema: groupSchema,
    ...(options.patchRules === undefined ? {} : { rules: options.patchRules }),
  });
}

/**
 * Lists every resource type the core serves, given the host's options: the User, and the
 * Group when the store keeps groups.
 */
export function builtInResourceTypes(
  options: BuiltInTypeOptions = {},
): readonly CompiledResourceType[] {
  const user = compileUserType(options);
  return options.store?.groups ? [user, compileGroupType(options)] : [user];
}
