import { ScimConfigError } from '../../errors/index.js';
import { DEFAULT_MAX_ATTRIBUTE_VALUES } from '../../schema/check-value-counts.js';
import type {
  AuthOptions,
  DialectOptions,
  HookOptions,
  LimitOptions,
  MailOptions,
  PagingOptions,
  ScimOptions,
  ScimOptionsBase,
  SchemaOptions,
} from '../options.js';
import { mailDelivery, missingForMail } from '../mail/mail-setup.js';
import type { ScimSettings } from './scim-settings.js';

const MiB = 1024 * 1024;

/** The groups of `createScim`'s options, each with its members. */
interface OptionGroups {
  readonly auth: AuthOptions;
  readonly mail: MailOptions;
  readonly limits: LimitOptions;
  readonly paging: PagingOptions;
  readonly dialects: DialectOptions;
  readonly schema: SchemaOptions;
  readonly hooks: HookOptions;
}

type GroupName = keyof OptionGroups;

/**
 * Every deprecated flat option name, and the group it moved to (under the same name). One
 * table: `resolveOptions`, `scimOpenApi` and the CHANGELOG's list agree with it.
 */
export const FLAT_OPTION_GROUPS: Readonly<{
  [G in GroupName]: readonly (keyof OptionGroups[G] & keyof ScimOptionsBase)[];
}> = {
  auth: ['rateLimit'],
  mail: ['mailer', 'outbox'],
  limits: [
    'maxBodyBytes',
    'bodyTimeoutMs',
    'maxBulkOperations',
    'maxBulkPayloadBytes',
    'maxResponseBytes',
    'maxResponseBytesInFlight',
    'maxPatchOperations',
    'maxPatchWork',
    'maxAttributeValues',
  ],
  paging: [
    'defaultPageSize',
    'maxPageSize',
    'cursorSecret',
    'cursorTimeoutSeconds',
    'advertiseCursors',
  ],
  dialects: ['patchRules', 'profiles', 'defaultProfile'],
  schema: ['extensions', 'groupExtensions', 'userNameRule'],
  hooks: ['onPassword', 'onEvent', 'onRequest', 'onError', 'now'],
};

/**
 * Folds the deprecated flat names of `createScim`'s options into their groups: a setting given
 * in its group and under its flat name must be the same value.
 *
 * @throws ScimConfigError naming a setting given both ways with different values.
 */
export function optionGroups(options: Partial<ScimOptionsBase> & { verifier?: unknown }): {
  [G in GroupName]: Partial<Record<string, unknown>>;
} {
  const flat = options as Readonly<Record<string, unknown>>;
  const groups = {} as { [G in GroupName]: Record<string, unknown> };
  const names = {
    ...FLAT_OPTION_GROUPS,
    auth: [...FLAT_OPTION_GROUPS.auth, 'verifier'],
  } as Readonly<Record<GroupName, readonly string[]>>;
  for (const group of Object.keys(names) as GroupName[]) {
    const given = { ...(flat[group] as Record<string, unknown> | undefined) };
    for (const name of names[group] ?? []) {
      const alias = flat[name];
      if (alias === undefined) continue;
      if (given[name] !== undefined && given[name] !== alias)
        throw new ScimConfigError(
          `createScim: ${name} and ${group}.${name} are both given, with different values; ` +
            `give only ${group}.${name} (${name} is a deprecated alias).`,
        );
      given[name] = alias;
    }
    groups[group] = given;
  }
  return groups;
}

const STORE_METHODS = ['create', 'get', 'replace', 'delete', 'list'] as const;
const GROUP_METHODS = [
  'create',
  'get',
  'replace',
  'delete',
  'list',
  'addMembers',
  'removeMembers',
  'members',
  'groupsOf',
] as const;

// Names every store, group store, verifier and mailer method the service needs and lacks.
function missingMethods(settings: ScimSettings): string[] {
  const { store } = settings;
  const missing: string[] = [];
  for (const m of STORE_METHODS) if (typeof store?.[m] !== 'function') missing.push(`store.${m}()`);
  const groups = store?.groups;
  if (groups !== undefined) {
    for (const m of GROUP_METHODS)
      if (typeof groups?.[m] !== 'function') missing.push(`store.groups.${m}()`);
  }
  if (typeof settings.auth.verifier?.verify !== 'function') missing.push('auth.verifier.verify()');
  missing.push(...missingForMail(store, settings.mail.mailer));
  return missing;
}

/** How many days the event log keeps events when `events.retentionDays` is not given. */
const DEFAULT_RETENTION_DAYS = 30;

/**
 * Resolves `createScim`'s options into the one form everything downstream reads: the groups,
 * with the deprecated flat names folded in and the simple defaults applied; then checks what
 * the service needs at start.
 *
 * @throws ScimConfigError for a setting given in its group and under its deprecated flat name
 *   with different values, a missing store, verifier or mailer method (the store's event log
 *   and subscription state when a mailer is given), or a `basePath` that does not start with `/` or ends with one.
 */
export function resolveOptions(options: ScimOptions): ScimSettings {
  const groups = optionGroups(options);
  const auth = groups.auth as AuthOptions;
  const mail = groups.mail as MailOptions;
  const limits = groups.limits as LimitOptions;
  const paging = groups.paging as PagingOptions;
  const dialects = groups.dialects as DialectOptions;
  const schema = groups.schema as SchemaOptions;
  const hooks = groups.hooks as HookOptions;
  const settings: ScimSettings = {
    store: options.store,
    basePath: options.basePath ?? '',
    publicBaseUrl: options.publicBaseUrl,
    resourceTypes: options.resourceTypes ?? [],
    me: options.me,
    auth: { verifier: auth.verifier as AuthOptions['verifier'] & {}, rateLimit: auth.rateLimit },
    mail: { mailer: mail.mailer, delivery: mailDelivery(mail) },
    events: { retentionDays: options.events?.retentionDays ?? DEFAULT_RETENTION_DAYS },
    limits: {
      maxBodyBytes: limits.maxBodyBytes ?? MiB,
      bodyTimeoutMs: limits.bodyTimeoutMs ?? 10_000,
      maxBulkOperations: limits.maxBulkOperations ?? 1000,
      maxBulkPayloadBytes: limits.maxBulkPayloadBytes ?? MiB,
      bulkConcurrency: bulkConcurrency(limits.bulkConcurrency),
      maxResponseBytes: limits.maxResponseBytes,
      maxResponseBytesInFlight: limits.maxResponseBytesInFlight,
      maxPatchOperations: limits.maxPatchOperations,
      maxPatchWork: limits.maxPatchWork,
      maxAttributeValues: limits.maxAttributeValues ?? DEFAULT_MAX_ATTRIBUTE_VALUES,
    },
    paging: {
      defaultPageSize: paging.defaultPageSize ?? 50,
      maxPageSize: paging.maxPageSize ?? 100,
      cursorSecret: paging.cursorSecret,
      cursorTimeoutSeconds: paging.cursorTimeoutSeconds,
      advertiseCursors: paging.advertiseCursors ?? true,
    },
    dialects: {
      patchRules: dialects.patchRules,
      profiles: dialects.profiles,
      defaultProfile: dialects.defaultProfile,
    },
    schema: {
      extensions: schema.extensions ?? [],
      groupExtensions: schema.groupExtensions ?? [],
      userNameRule: schema.userNameRule ?? 'rfc',
    },
    hooks: {
      onPassword: hooks.onPassword,
      onEvent: hooks.onEvent,
      onRequest: hooks.onRequest,
      onError: hooks.onError,
      now: hooks.now ?? (() => new Date()),
    },
  };
  const missing = missingMethods(settings);
  if (missing.length > 0) throw new ScimConfigError(`createScim: missing ${missing.join(', ')}.`);
  const { basePath } = settings;
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/'))) {
    throw new ScimConfigError(
      `createScim: basePath "${basePath}" must start with "/" and not end with one.`,
    );
  }
  return settings;
}

/** POSTs of one `/Bulk` request that may run at once when their unique keys differ. */
const DEFAULT_BULK_CONCURRENCY = 8;

// `limits.bulkConcurrency`, checked: a whole number from 1.
function bulkConcurrency(value: number | undefined): number {
  if (value === undefined) return DEFAULT_BULK_CONCURRENCY;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ScimConfigError(
      `createScim: limits.bulkConcurrency must be a whole number from 1; got ${String(value)}.`,
    );
  return value;
}
