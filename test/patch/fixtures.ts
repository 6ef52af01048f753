import { applyPatch, type PatchOptions } from '../../src/patch/index.js';
import { accountSchema, enterpriseUserSchema, userSchema } from '../../src/schema/user-schema.js';
import { isScimError, type ScimError } from '../../src/errors/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { compileResourceType, type CompiledResourceType } from '../../src/schema/resource-type.js';
import type { SchemaDefinition } from '../../src/schema/types.js';
import type { DialectRuleName } from '../../src/patch/types.js';
import {
  ACCOUNT_SCHEMA,
  ENTERPRISE_USER_SCHEMA,
  PATCH_OP_SCHEMA,
  USER_SCHEMA,
} from '../../src/schema/urns.js';

export { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA, USER_SCHEMA, PATCH_OP_SCHEMA };

export const SCHEMAS = [userSchema, enterpriseUserSchema, accountSchema] as const;
export const TYPE = userResourceType();

/** Compiles a resource type from a list of schemas, the first the core schema. */
export function resourceTypeOf(
  schemas: readonly SchemaDefinition[],
  rules?: Partial<Record<DialectRuleName, boolean>>,
): CompiledResourceType {
  const [schema, ...extensions] = schemas;
  if (!schema) throw new Error('resourceTypeOf needs the core schema');
  return compileResourceType({
    name: 'User',
    endpoint: '/Users',
    schema,
    extensions,
    ...(rules ? { rules } : {}),
  });
}
export const OPTIONS: PatchOptions = { resourceType: TYPE };

/** A stored user as the core keeps it. */
export function storedUser(): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA, ACCOUNT_SCHEMA],
    id: '0192f1c4-aaaa-7000-8000-000000000001',
    externalId: 'ext-1',
    userName: 'ada@example.org',
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    displayName: 'Ada Lovelace',
    active: true,
    emails: [
      { value: 'ada@example.org', type: 'work', primary: true },
      { value: 'ada@home.example', type: 'home' },
    ],
    roles: [{ value: 'reader' }],
    [ACCOUNT_SCHEMA]: { status: 'Invited', invitedAt: '2026-01-01T00:00:00Z' },
    meta: {
      resourceType: 'User',
      created: '2026-01-01T00:00:00Z',
      lastModified: '2026-01-01T00:00:00Z',
      version: 'W/"1"',
    },
  };
}

/** Wraps operations in a PatchOp message. */
export function message(...operations: unknown[]): Record<string, unknown> {
  return { schemas: [PATCH_OP_SCHEMA], Operations: operations };
}

/** Applies operations to a user with all dialect rules on. */
export function patch(resource: Record<string, unknown>, ...operations: unknown[]) {
  return applyPatch(resource, message(...operations), OPTIONS);
}

/** Runs a patch that must fail and returns its ScimError. */
export function failure(run: () => unknown): ScimError {
  try {
    run();
  } catch (error) {
    if (isScimError(error)) return error;
    throw error;
  }
  throw new Error('expected a ScimError, but the patch succeeded');
}
