import type { ApiKeyVerifier } from '../../contracts/api-key-verifier.js';
import type { Mailer } from '../../contracts/mailer.js';
import type { UserStore } from '../../contracts/user-store.js';
import type { DialectRuleName } from '../../schema/dialect-rules.js';
import type { SchemaDefinition } from '../../schema/types.js';
import type { UserNameRule } from '../../schema/user-name-rule.js';
import type { RequestCompletedEvent, ScimEvent } from '../events/types.js';
import type { HostResourceType } from '../host-types/host-resource-type.js';
import type { MailDeliveryOptions, MeHook, RateLimit } from '../options.js';
import type { ProfileDefinition } from '../profiles.js';
import type { ScimRequest } from '../types.js';

/**
 * The options of `createScim` resolved: every group present, each deprecated flat name folded
 * into its group, and the simple defaults applied. A setting left `undefined` here takes the
 * default of the part that checks it (the response budget, the PATCH engine, the cursor codec,
 * the subscribers, the profiles), so each default is written once.
 */
export interface ScimSettings {
  readonly store: UserStore;
  readonly basePath: string;
  readonly publicBaseUrl: string | undefined;
  readonly resourceTypes: readonly HostResourceType[];
  readonly me: MeHook | undefined;
  readonly auth: {
    readonly verifier: ApiKeyVerifier;
    readonly rateLimit: RateLimit | undefined;
  };
  readonly mail: {
    readonly mailer: Mailer | undefined;
    readonly delivery: MailDeliveryOptions;
  };
  readonly events: {
    readonly retentionDays: number;
  };
  readonly limits: {
    readonly maxBodyBytes: number;
    readonly bodyTimeoutMs: number;
    readonly maxBulkOperations: number;
    readonly maxBulkPayloadBytes: number;
    /** POSTs of one `/Bulk` request run at once (`limits.bulkConcurrency`). */
    readonly bulkConcurrency: number;
    readonly maxResponseBytes: number | undefined;
    readonly maxResponseBytesInFlight: number | undefined;
    readonly maxPatchOperations: number | undefined;
    readonly maxPatchWork: number | undefined;
    readonly maxAttributeValues: number;
  };
  readonly paging: {
    readonly defaultPageSize: number;
    readonly maxPageSize: number;
    readonly cursorSecret: string | undefined;
    readonly cursorTimeoutSeconds: number | undefined;
    readonly advertiseCursors: boolean;
  };
  readonly dialects: {
    readonly patchRules: Partial<Record<DialectRuleName, boolean>> | undefined;
    readonly profiles: Readonly<Record<string, ProfileDefinition>> | undefined;
    readonly defaultProfile: string | undefined;
  };
  readonly schema: {
    readonly extensions: readonly SchemaDefinition[];
    readonly groupExtensions: readonly SchemaDefinition[];
    readonly userNameRule: UserNameRule;
  };
  readonly hooks: {
    readonly onPassword:
      ((tenant: string, userId: string, password: string) => void | Promise<void>) | undefined;
    readonly onEvent: ((event: ScimEvent) => void) | undefined;
    readonly onRequest: ((event: RequestCompletedEvent) => void) | undefined;
    readonly onError: ((error: unknown, request?: ScimRequest) => void) | undefined;
    readonly now: () => Date;
  };
}
