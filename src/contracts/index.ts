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
  UserStore,
  WriteEffects,
} from './user-store.js';
export type { OutboxKind, OutboxMessage, OutboxStore, PendingOutboxMessage } from './outbox.js';
export type { Mailer, SendOptions, WelcomeEmail } from './mailer.js';
export type { ApiKeyVerifier, Tenant } from './api-key-verifier.js';
export type {
  GroupListQuery,
  GroupListResult,
  GroupReadOptions,
  GroupReplaceOptions,
  GroupReplaceResult,
  GroupStore,
  GroupsOfOptions,
  MemberGroup,
  MemberInput,
  MembershipChange,
  MembershipOptions,
} from './group-store.js';
export type {
  ResourceCreateOptions,
  ResourceListQuery,
  ResourceListResult,
  ResourceMeta,
  ResourceReplaceOptions,
  ResourceStore,
  ScimResource,
  UniqueKeys,
} from './resource-store.js';
