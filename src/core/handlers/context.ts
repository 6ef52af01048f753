import type { Tenant } from '../../contracts/api-key-verifier.js';
import type { Filter } from '../../filter/ast.js';
import type { PatchContext } from '../../patch/patch-context.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { ScimRequest, ScimResponse } from '../types.js';
import type { UserService } from '../users/user-service.js';

/** Settings fixed at start-up that handlers read. */
export interface HandlerConfig {
  /** The User resource type, compiled once: every schema lookup and path resolution. */
  readonly resourceType: CompiledResourceType;
  readonly maxBodyBytes: number;
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  /** What every PATCH applies in: the resource type, its rules, the limits, resolved paths. */
  readonly patch: PatchContext;
  /** Parses and checks a filter text (see `filterReader`). */
  readonly readFilter: (text: string) => Filter;
  /** Whether the store sorts (it declares `capabilities.supportsSort`). */
  readonly sortSupported: boolean;
  /** The host's password hook, if any. */
  readonly onPassword:
    ((tenant: string, userId: string, password: string) => void | Promise<void>) | undefined;
  /** Reports a fault that must not fail the request. */
  readonly reportError: (error: unknown) => void;
}

/** What a handler receives for one authenticated, routed request. */
export interface HandlerContext {
  readonly request: ScimRequest;
  readonly tenant: Tenant;
  /** The `{id}` path segment, when the route has one. */
  readonly id: string;
  /** Absolute URL of the Users endpoint, e.g. `https://host/api/v1/scim/v2/Users`. */
  readonly usersUrl: string;
  readonly users: UserService;
  readonly config: HandlerConfig;
}

/** Answers one routed request. */
export type Handler = (context: HandlerContext) => Promise<ScimResponse>;
