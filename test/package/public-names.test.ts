import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entryPoints } from '../../entry-points.js';

/**
 * The public names of every entry point. A name added to, or dropped from, an entry must be
 * added or dropped here too, on purpose; each name is exported by one entry only, so that it
 * means one thing (an engine lives in its own entry, the rest in the root).
 */
const PUBLIC_NAMES: Record<string, readonly string[]> = {
  '.': [
    'ACCOUNT_SCHEMA',
    'AccountExtension',
    'accountSchema',
    'AccountStatus',
    'AdapterOptions',
    'AnswerConvention',
    'ApiKeyVerifier',
    'AttributeDefinition',
    'AttributeOptions',
    'AttributeType',
    'BodyEnd',
    'BUILT_IN_PROFILES',
    'BuiltInProfileName',
    'ChangedAttributes',
    'checkImmutable',
    'CompiledResourceType',
    'compileResourceType',
    'createScim',
    'defineAttribute',
    'DefinedAttribute',
    'defineSchema',
    'DeleteOptions',
    'DeleteTenantOptions',
    'DIALECT_RULES',
    'DialectRuleName',
    'DialectRules',
    'ENTERPRISE_USER_SCHEMA',
    'EnterpriseUser',
    'enterpriseUserSchema',
    'ERROR_SCHEMA',
    'explainNormalisations',
    'ExportedResource',
    'ExportTenantOptions',
    'FiredRule',
    'GROUP_SCHEMA',
    'GroupAccess',
    'HostResourceType',
    'ResourceCreatedEvent',
    'ResourceCreateOptions',
    'ResourceDeletedEvent',
    'ResourceListQuery',
    'ResourceListResult',
    'ResourceMeta',
    'ResourceReplaceOptions',
    'ResourceStore',
    'ResourceStoreShape',
    'ResourceUpdatedEvent',
    'ScimResource',
    'UniqueKeys',
    'GroupCreatedEvent',
    'GroupDeletedEvent',
    'GroupListQuery',
    'GroupListResult',
    'GroupMember',
    'GroupMemberAddedEvent',
    'GroupMemberRemovedEvent',
    'GroupMeta',
    'GroupReadOptions',
    'GroupReplaceOptions',
    'GroupReplaceResult',
    'groupSchema',
    'GroupsOfOptions',
    'GroupStore',
    'GroupStoreShape',
    'GroupUpdatedEvent',
    'HeaderValue',
    'InferAttribute',
    'InferAttributes',
    'InferExtension',
    'InferScalar',
    'isScimError',
    'ListPosition',
    'ListQuery',
    'ListResult',
    'ListSeek',
    'ListSeekResult',
    'Mailer',
    'MeHook',
    'MemberGroup',
    'MemberInput',
    'MemberPageOptions',
    'MembershipChange',
    'MembershipDeltas',
    'MembershipOptions',
    'MemberType',
    'MultiValue',
    'Mutability',
    'Normalisation',
    'NormalisationRule',
    'OutboxKind',
    'OutboxMessage',
    'OutboxOptions',
    'OutboxStore',
    'PATCH_OP_SCHEMA',
    'PendingOutboxMessage',
    'ProfileDefinition',
    'RateLimit',
    'RateLimitVerdict',
    'REDACTED',
    'ReplaceOptions',
    'RequestCompletedEvent',
    'ResolvedAttribute',
    'ResourceTypeDefinition',
    'Returned',
    'SchemaDefinition',
    'SCHEMAS_ATTRIBUTE',
    'Scim',
    'ScimAdmission',
    'ScimBodyPhase',
    'ScimConfigError',
    'ScimError',
    'ScimErrorBody',
    'ScimErrorOptions',
    'scimErrors',
    'ScimEvent',
    'ScimGroup',
    'ScimOptions',
    'ScimOptionsBase',
    'AuthOptions',
    'MailOptions',
    'LimitOptions',
    'PagingOptions',
    'DialectOptions',
    'SchemaOptions',
    'HookOptions',
    'ScimRequest',
    'ScimRequestHead',
    'ScimResponse',
    'ScimType',
    'ScimUser',
    'ScimUserAttributes',
    'Scope',
    'KeyStore',
    'DEFAULT_ROTATION_OVERLAP_MS',
    'IssueKeyOptions',
    'IssuedApiKey',
    'KeyStoreOptions',
    'ListedApiKey',
    'RotateKeyOptions',
    'MemoryKeyStore',
    'KeyStoreError',
    'KeyStoreErrorCode',
    'ApiKeyInfo',
    'ApiKeyRecords',
    'StoredApiKey',
    'SendOptions',
    'sha256Hex',
    'SortOrder',
    'StaticApiKey',
    'staticApiKeys',
    'StoreCapabilities',
    'StoredResource',
    'StorePage',
    'Tenant',
    'TenantAdmin',
    'TenantDeletion',
    'TenantDeletionProgress',
    'toNdjson',
    'toScimError',
    'TypeStore',
    'TypeStoreShape',
    'Uniqueness',
    'USER_SCHEMA',
    'UserActivatedEvent',
    'UserCreatedEvent',
    'UserDeactivatedEvent',
    'UserDeletedEvent',
    'UserLifecycle',
    'UserMeta',
    'UserName',
    'userNameKey',
    'UserNameRule',
    'UserReactivatedEvent',
    'userResourceType',
    'UserResourceTypeOptions',
    'userSchema',
    'UserStore',
    'UserStoreShape',
    'UserUpdatedEvent',
    'WelcomeEmail',
    'WithExtension',
    'WriteEffects',
  ],
  './express': ['scimExpress'],
  './fastify': ['scimFastify'],
  './hono': ['scimHono'],
  './fetch': ['scimFetch'],
  './node': ['deferContinue', 'scimNode'],
  './memory': [
    'MemoryOutboxEntry',
    'MemoryOutboxState',
    'MemoryUserStore',
    'MemoryResourceStore',
    'MemoryResourceStoreOptions',
    'MemoryUserStoreOptions',
  ],
  './postgres': [
    'CompiledSqlFilter',
    'compileSqlFilter',
    'GroupsFilterContext',
    'migrate',
    'MigrateResult',
    'Migration',
    'migrations',
    'MigrationScript',
    'pgExecutor',
    'PgExecutorOptions',
    'pgliteExecutor',
    'PostgresOutboxStore',
    'PostgresKeyStore',
    'PostgresKeyStoreOptions',
    'PostgresResourceStore',
    'PostgresResourceStoreOptions',
    'PostgresUserStore',
    'PostgresUserStoreOptions',
    'QueryExecutor',
    'QueryOptions',
    'Row',
    'TableLocation',
    'TableNames',
    'TransactionOptions',
    'UnsupportedFilterError',
    'UnsupportedReason',
  ],
  './testing': [
    'CaseSkipped',
    'createUserFactory',
    'runStoreConformance',
    'runStoreConformanceCase',
    'conformanceThingType',
    'ResourceStoreCase',
    'resourceStoreCases',
    'ResourceStoreFactory',
    'ResourceStoreTestContext',
    'runResourceStoreCase',
    'runResourceStoreConformance',
    'StoreConformanceCase',
    'storeConformanceCases',
    'StoreConformanceOptions',
    'StoreConformanceResult',
    'StoreConformanceTargets',
    'StoreFactory',
    'StoreHarness',
    'StoreTestContext',
    'UserFactory',
  ],
  './testing/vitest': ['describeResourceStoreConformance', 'describeStoreConformance'],
  './patch': [
    'applyPatch',
    'parsePatchPath',
    'PatchOpName',
    'PatchOptions',
    'PatchPath',
    'PatchResult',
  ],
  './filter': [
    'AttributePath',
    'checkFilter',
    'CompareFilter',
    'CompareOperator',
    'compileFilter',
    'compileSort',
    'DEFAULT_MAX_FILTER_DEPTH',
    'DEFAULT_MAX_FILTER_LENGTH',
    'DEFAULT_MAX_FILTER_WORK',
    'Filter',
    'FilterPredicate',
    'FilterValue',
    'filterWorkMeter',
    'isPresentValue',
    'LogicalFilter',
    'matchesFilter',
    'NotFilter',
    'parseDateTime',
    'parseFilter',
    'ParseFilterOptions',
    'PresentFilter',
    'ResourceComparator',
    'stringifyAttributePath',
    'stringifyFilter',
    'ValuePathFilter',
    'WORK_COSTS',
    'WorkMeter',
  ],
  './openapi': [
    'JsonSchema',
    'openApiDocument',
    'OpenApiDocument',
    'OpenApiInput',
    'ResourceTypeDescription',
    'scimOpenApi',
    'ScimOpenApiOptions',
  ],
};

/** What an entry file exports, read from its syntax: names, and any `export *` it contains. */
function exportsOf(src: string): { names: string[]; star: string[] } {
  const text = readFileSync(new URL(`../../${src}`, import.meta.url), 'utf8');
  const file = ts.createSourceFile(src, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  const star: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined || ts.isNamespaceExport(clause)) star.push(statement.getText(file));
      else names.push(...clause.elements.map((e) => e.name.text));
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      if (ts.isVariableStatement(statement))
        names.push(...statement.declarationList.declarations.map((d) => d.name.getText(file)));
      else if ('name' in statement && statement.name !== undefined)
        names.push((statement.name as ts.Identifier).text);
    }
  }
  return { names, star };
}

const byEntry = entryPoints.map((entry) => ({ ...entry, ...exportsOf(entry.src) }));
const sorted = (names: readonly string[]) => [...names].sort((a, b) => a.localeCompare(b));

describe('the public names', () => {
  it.each(byEntry.map((e) => [e.subpath, e] as const))(
    '%s re-exports by name (no export *)',
    (_subpath, entry) => {
      expect(entry.star).toEqual([]);
    },
  );

  it.each(byEntry.map((e) => [e.subpath, e] as const))(
    '%s exports exactly its listed names',
    (subpath, entry) => {
      expect(sorted(entry.names)).toEqual(sorted(PUBLIC_NAMES[subpath] ?? []));
    },
  );

  it('lists every entry point', () => {
    expect(Object.keys(PUBLIC_NAMES).sort()).toEqual(entryPoints.map((e) => e.subpath).sort());
  });

  it('exports each name from one entry only', () => {
    const entriesOf = new Map<string, string[]>();
    for (const entry of byEntry) {
      for (const name of entry.names)
        entriesOf.set(name, [...(entriesOf.get(name) ?? []), entry.subpath]);
    }
    const repeated = [...entriesOf].filter(([, subpaths]) => subpaths.length > 1);
    expect(Object.fromEntries(repeated)).toEqual({});
  });
});
