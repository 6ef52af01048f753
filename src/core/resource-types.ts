import type { DialectRuleName } from '../schema/dialect-rules.js';
import { groupResourceType } from '../schema/group-resource-type.js';
import { groupSchema } from '../schema/group-schema.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { SchemaDefinition } from '../schema/types.js';
import { userResourceType } from '../schema/user-resource-type.js';
import { accountSchema, enterpriseUserSchema, userSchema } from '../schema/user-schema.js';
import { checkExtensions } from './check-extensions.js';
import { checkHostTypes } from './host-types/check-host-types.js';
import { compileHostType } from './host-types/compile-host-type.js';
import type { HostResourceType } from './host-types/host-resource-type.js';

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
  /** The host's Group extensions. */
  readonly groupExtensions?: readonly SchemaDefinition[] | undefined;
  /** Dialect rules switched off (`false`). */
  readonly patchRules?: Partial<Record<DialectRuleName, boolean>> | undefined;
  /** The store: Groups are served exactly when it keeps groups (has `groups`). */
  readonly store?: { readonly groups?: unknown } | undefined;
  /** The host's own resource types, served after the User and the Group. */
  readonly resourceTypes?: readonly HostResourceType[] | undefined;
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

// The host's Group extensions, checked against every User schema and the core Group.
function checkedGroupExtensions(options: BuiltInTypeOptions): readonly SchemaDefinition[] {
  const extensions = options.groupExtensions ?? [];
  const userSchemas = [userSchema, enterpriseUserSchema, accountSchema];
  checkExtensions([...userSchemas, ...(options.extensions ?? []), groupSchema], extensions);
  return extensions;
}

/**
 * Compiles the Group resource type the core serves (RFC 7643 §4.2), after checking the host's
 * Group extensions as the User's are (a `urn:` id no User or Group schema uses, valid attribute
 * names), with the same dialect rules as the User's.
 *
 * @throws ScimConfigError when a Group extension is invalid.
 */
export function compileGroupType(options: BuiltInTypeOptions = {}): CompiledResourceType {
  return groupResourceType({
    extensions: checkedGroupExtensions(options),
    ...(options.patchRules === undefined ? {} : { rules: options.patchRules }),
  });
}

/**
 * Checks the host's Group extensions (see `compileGroupType`), then its own resource types
 * against the schemas and endpoints served besides them.
 *
 * @throws ScimConfigError naming the first problem (see `checkHostTypes`).
 */
export function checkResourceTypes(options: BuiltInTypeOptions = {}): void {
  const taken = [
    userSchema,
    enterpriseUserSchema,
    accountSchema,
    groupSchema,
    ...(options.extensions ?? []),
    ...checkedGroupExtensions(options),
  ];
  checkHostTypes(options.resourceTypes ?? [], taken);
}

/**
 * Lists every resource type the core serves, given the host's options: the User, the Group
 * when the store keeps groups, then the host's own resource types.
 *
 * @throws ScimConfigError when an extension or a host's resource type is invalid.
 */
export function builtInResourceTypes(
  options: BuiltInTypeOptions = {},
): readonly CompiledResourceType[] {
  const user = compileUserType(options);
  checkResourceTypes(options);
  const hosts = (options.resourceTypes ?? []).map((t) => compileHostType(t, options.patchRules));
  return [user, ...(options.store?.groups ? [compileGroupType(options)] : []), ...hosts];
}
