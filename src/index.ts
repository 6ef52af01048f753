/**
 * scimkit: an embeddable, framework-agnostic SCIM 2.0 user-provisioning service.
 *
 * @module
 * @example
 * ```ts
 * import { createScim, staticApiKeys } from 'scimkit';
 * import { MemoryUserStore } from 'scimkit/memory';
 *
 * const scim = createScim({
 *   store: new MemoryUserStore(),
 *   verifier: staticApiKeys([{ key: 's3cret', tenant: 'district-42' }]),
 *   mailer: { async sendWelcome(email) { console.log('welcome', email.to); } },
 *   basePath: '/api/v1/scim/v2',
 * });
 * const response = await scim.handle({ method: 'GET', path: '/api/v1/scim/v2/Users', headers: { authorization: 'Bearer s3cret' } });
 * ```
 */
export { createScim } from './core/create-scim.js';
export type {
  ScimRequest,
  ScimResponse,
  HeaderValue,
  ScimRequestHead,
  ScimAdmission,
  ScimBodyPhase,
  BodyEnd,
} from './core/types.js';
export type { AdapterOptions } from './adapters/adapter-options.js';
export { staticApiKeys, sha256Hex } from './auth/static-api-keys.js';
export { KeyStore, DEFAULT_ROTATION_OVERLAP_MS } from './auth/key-store.js';
export type {
  IssueKeyOptions,
  IssuedApiKey,
  KeyStoreOptions,
  ListedApiKey,
  RotateKeyOptions,
} from './auth/key-store.js';
export { MemoryKeyStore } from './auth/memory-key-store.js';
export { KeyStoreError } from './auth/key-store-error.js';
export type { KeyStoreErrorCode } from './auth/key-store-error.js';
export type { ApiKeyInfo, ApiKeyRecords, StoredApiKey } from './contracts/api-key-records.js';
export type { StaticApiKey } from './auth/static-api-keys.js';
export type { Scim, UserLifecycle, GroupAccess } from './core/scim.js';
export type { EventFeed, EventListOptions } from './core/events/event-feed.js';
export type { TenantAdmin } from './core/tenants/tenant-admin.js';
export type {
  DeleteTenantOptions,
  TenantDeletion,
  TenantDeletionProgress,
} from './core/tenants/delete-tenant.js';
export type { ExportedResource, ExportTenantOptions } from './core/tenants/export-tenant.js';
export { toNdjson } from './core/tenants/to-ndjson.js';
export type {
  ScimOptions,
  ScimOptionsBase,
  AuthOptions,
  MailOptions,
  EventOptions,
  LimitOptions,
  PagingOptions,
  DialectOptions,
  SchemaOptions,
  HookOptions,
  MailDeliveryOptions,
  OutboxOptions,
  RateLimit,
  RateLimitVerdict,
} from './core/options.js';
export type { MeHook } from './core/options.js';
export type { HostResourceType } from './core/host-types/host-resource-type.js';
export type {
  ChangedAttributes,
  UserCreatedEvent,
  UserUpdatedEvent,
  UserDeactivatedEvent,
  UserReactivatedEvent,
  UserActivatedEvent,
  UserInvitedEvent,
  UserDeletedEvent,
  GroupCreatedEvent,
  GroupUpdatedEvent,
  GroupDeletedEvent,
  GroupMemberAddedEvent,
  GroupMemberRemovedEvent,
  ResourceCreatedEvent,
  ResourceUpdatedEvent,
  ResourceDeletedEvent,
  ScimEvent,
  NormalisationRule,
  Normalisation,
  RequestCompletedEvent,
} from './core/events/types.js';
export { explainNormalisations } from './core/events/explain-normalisations.js';
export { REDACTED } from './core/events/redact-write-only.js';
export type {
  DeleteOptions,
  ListPosition,
  ListQuery,
  ListResult,
  ListSeek,
  ListSeekResult,
  ReplaceOptions,
  SortOrder,
  StoreCapabilities,
  StorePage,
  UserStore,
  UserStoreShape,
  WriteEffects,
} from './contracts/user-store.js';
export type {
  DirectoryEvent,
  DirectoryEventData,
  DirectoryEventType,
  EventEffects,
  EventListQuery,
  EventLog,
  EventPage,
  LoggedEvent,
  MembershipEventChange,
  MembershipEventEffects,
} from './contracts/event-log.js';
export type {
  MemberPageOptions,
  MembershipDeltas,
  StoredResource,
  TypeStore,
  TypeStoreShape,
} from './contracts/type-store.js';
export type {
  AttemptListQuery,
  AttemptPage,
  AttemptRecord,
  DeadLetter,
  DeadLetterQuery,
  DeadLetterState,
  DeliveryAttempt,
  DeliveryStatus,
  ListedDeliveryAttempt,
  PartitionClaim,
  SubscriptionStore,
  WalkerClaim,
} from './contracts/event-subscriptions.js';
export type {
  AttemptListOptions,
  BackoffOptions,
  DeadLetterListOptions,
  DeliveryContext,
  EventHandler,
  SubscribeOptions,
  Subscription,
} from './core/subscriptions/types.js';
export type { Mailer, SendOptions, WelcomeEmail } from './contracts/mailer.js';
export { generateWebhookSecret } from './core/webhooks/webhook-secret.js';
export { webhookSigner } from './core/webhooks/webhook-signer.js';
export type {
  WebhookHeaders,
  WebhookMessage,
  WebhookSigner,
} from './core/webhooks/webhook-signer.js';
export { checkWebhookEndpoint } from './core/webhooks/webhook-endpoint.js';
export type { CheckedWebhookEndpoint, WebhookEndpoint } from './core/webhooks/webhook-endpoint.js';
export { webhookSubscriber } from './core/webhooks/webhook-subscriber.js';
export type {
  WebhookAttempt,
  WebhookEndpoints,
  WebhookHandler,
  WebhookSubscriberOptions,
} from './core/webhooks/webhook-subscriber.js';
export { WebhookDeliveryError } from './core/webhooks/webhook-delivery-error.js';
export { WEBHOOK_RETRY } from './core/webhooks/webhook-retry.js';
export type { ApiKeyVerifier, Scope, Tenant } from './contracts/api-key-verifier.js';
export type {
  GroupListQuery,
  GroupListResult,
  GroupReadOptions,
  GroupReplaceOptions,
  GroupReplaceResult,
  GroupStore,
  GroupStoreShape,
  GroupsOfOptions,
  MemberGroup,
  MemberInput,
  MembershipChange,
  MembershipOptions,
} from './contracts/group-store.js';
export type {
  ResourceCreateOptions,
  ResourceListQuery,
  ResourceListResult,
  ResourceMeta,
  ResourceReplaceOptions,
  ResourceStore,
  ResourceStoreShape,
  ScimResource,
  UniqueKeys,
} from './contracts/resource-store.js';
export {
  ScimError,
  isScimError,
  scimErrors,
  toScimError,
  ScimConfigError,
} from './errors/index.js';
export type { ScimType, ScimErrorBody, ScimErrorOptions } from './errors/index.js';
export {
  USER_SCHEMA,
  ENTERPRISE_USER_SCHEMA,
  ACCOUNT_SCHEMA,
  GROUP_SCHEMA,
  PATCH_OP_SCHEMA,
  ERROR_SCHEMA,
} from './schema/urns.js';
export type {
  AttributeType,
  Mutability,
  Returned,
  Uniqueness,
  AttributeDefinition,
  SchemaDefinition,
} from './schema/types.js';
export type {
  MultiValue,
  UserName,
  AccountExtension,
  EnterpriseUser,
  UserMeta,
  ScimUserAttributes,
  ScimUser,
} from './schema/user-resource.js';
export { userSchema, enterpriseUserSchema, accountSchema } from './schema/user-schema.js';
export type { AccountStatus } from './schema/user-schema.js';
export { groupSchema } from './schema/group-schema.js';
export type { GroupMember, GroupMeta, MemberType, ScimGroup } from './schema/group-schema.js';
export { defineAttribute } from './schema/define-attribute.js';
export type { DefinedAttribute, AttributeOptions } from './schema/define-attribute.js';
export { defineSchema } from './schema/define-schema.js';
export { compileResourceType } from './schema/resource-type.js';
export type {
  CompiledResourceType,
  ResolvedAttribute,
  ResourceTypeDefinition,
} from './schema/resource-type.js';
export { userResourceType } from './schema/user-resource-type.js';
export type { UserResourceTypeOptions } from './schema/user-resource-type.js';
export { SCHEMAS_ATTRIBUTE } from './schema/schemas-attribute.js';
export { DIALECT_RULES, BUILT_IN_PROFILES } from './schema/dialect-rules.js';
export type {
  DialectRuleName,
  DialectRules,
  BuiltInProfileName,
  FiredRule,
} from './schema/dialect-rules.js';
export type { AnswerConvention, ProfileDefinition } from './core/profiles.js';
export { checkImmutable } from './schema/check-immutable.js';
export { userNameKey } from './schema/user-name-key.js';
export type { UserNameRule } from './schema/user-name-rule.js';
export type {
  InferAttribute,
  InferAttributes,
  InferExtension,
  InferScalar,
  WithExtension,
} from './schema/infer.js';
