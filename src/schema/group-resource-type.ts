import type { DialectRuleName } from './dialect-rules.js';
import { compileResourceType, type CompiledResourceType } from './resource-type.js';
import { groupSchema } from './group-schema.js';
import type { SchemaDefinition } from './types.js';

/** Options of {@link groupResourceType}. */
export interface GroupResourceTypeOptions {
  /** The host's extension schemas of the Group. */
  readonly extensions?: readonly SchemaDefinition[];
  /** Dialect rules to switch off (`false`). */
  readonly rules?: Partial<Record<DialectRuleName, boolean>>;
}

/**
 * Compiles the Group resource type (RFC 7643 §4.2): the core Group schema and the host's
 * extensions, with the same machinery as the User's. The one Group schema list: `createScim`
 * compiles it here, and the group stores when a query carries no resource type.
 *
 * @example
 * ```ts
 * const groups = groupResourceType();
 * matchesFilter(group, parseFilter('displayName eq "Teachers"'), groups);
 * ```
 */
export function groupResourceType(options: GroupResourceTypeOptions = {}): CompiledResourceType {
  return compileResourceType({
    name: 'Group',
    endpoint: '/Groups',
    description: 'Group',
    schema: groupSchema,
    extensions: options.extensions ?? [],
    ...(options.rules === undefined ? {} : { rules: options.rules }),
  });
}
