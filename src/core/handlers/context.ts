import type { Tenant } from '../../contracts/api-key-verifier.js';
import type { ScimError } from '../../errors/index.js';
import type { ResponseBudget } from '../budget/response-budget.js';
import type { MeHook } from '../options.js';
import type { AnswerConventions } from '../profiles.js';
import type { ScimRequest, ScimResponse } from '../types.js';
import type { CursorSettings } from './cursor-token.js';
import type { ResourceEndpoint, StoredResource } from './resource-endpoint.js';

/** Settings fixed at start-up that handlers read. */
export interface HandlerConfig {
  /** The path every endpoint is below (`/api/v1/scim/v2`), or `''`. */
  readonly basePath: string;
  readonly maxBodyBytes: number;
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  /** Whether the user store sorts (it declares `capabilities.supportsSort`). */
  readonly sortSupported: boolean;
  /** Whether a password a client sends reaches the host (`onPassword` is given). */
  readonly changePassword: boolean;
  /**
   * Cursor paging (RFC 9865): the cursor codec and timeout; absent when the user store does
   * not declare `keysetPaging`. An endpoint pages by cursor when its `keysetPaging` is true.
   */
  readonly cursors: CursorSettings | undefined;
  /** The answer conventions of the request's profile (`/serviceConfiguration`, say). */
  readonly answers: AnswerConventions;
  /** Whether `/ServiceProviderConfig` shows the RFC 9865 `pagination` block. */
  readonly advertisePagination: boolean;
  /** Every resource type served, in the order discovery lists them (the User first). */
  readonly endpoints: readonly ResourceEndpoint[];
  /** Reports a fault that must not fail the request. */
  readonly reportError: (error: unknown) => void;
  /** Most operations in one `/Bulk` request (`maxOperations` of the SPC). */
  readonly maxBulkOperations: number;
  /** Largest `/Bulk` request body in bytes (`maxPayloadSize` of the SPC). */
  readonly maxBulkPayloadBytes: number;
  /** How many POSTs of one `/Bulk` request run at once. */
  readonly bulkConcurrency: number;
  /** Maps the caller to the user `/Me` stands for; `undefined` when the host gives no hook. */
  readonly me: MeHook | undefined;
  /** The byte budget every answer with resources is built within. */
  readonly responses: ResponseBudget;
}

/**
 * Marks the internal request of a `/Bulk` operation: a BulkResponse carries each operation's
 * status, `location` and `version`, never the resource, so the handlers answer it without a
 * body (the resource is neither expanded nor serialised). A client cannot set a symbol key.
 */
export const BULK_OPERATION: unique symbol = Symbol('scimkit bulk operation');

/** The internal request of a `/Bulk` operation (see {@link BULK_OPERATION}). */
export type BulkOperationRequest = ScimRequest & { readonly [BULK_OPERATION]?: true };

/** Tells whether a request is a `/Bulk` operation's, answered without a resource body. */
export function isBulkOperation(request: ScimRequest): boolean {
  return (request as BulkOperationRequest)[BULK_OPERATION] === true;
}

/**
 * The answer to a `/Bulk` operation as the pipeline gives it: no body on success, and the
 * resource written (a handler's) or the refusal (the pipeline's) as a value.
 */
export interface BulkOperationResponse extends ScimResponse {
  readonly resource?: StoredResource | undefined;
  readonly error?: ScimError | undefined;
}

/**
 * How one operation of a `/Bulk` request ended, as values (no text), so that the BulkResponse
 * reads the created id and the error body without parsing anything back.
 */
export interface OperationAnswer {
  /** The HTTP status the operation would have been answered with alone. */
  readonly status: number;
  /** Its headers (`location`, `etag`, ...). */
  readonly headers: Readonly<Record<string, string>>;
  /** The resource written, when the operation wrote one. */
  readonly resource?: StoredResource | undefined;
  /** Why the operation was refused, when it was. */
  readonly error?: ScimError | undefined;
}

/**
 * Answers a request of an already authenticated tenant (a `/Bulk` operation) through the same
 * route table, handlers and request trace as a request sent alone, without authenticating it
 * again, and gives the answer as values. The dispatcher is one.
 */
export interface OperationRunner {
  /**
   * Answers one operation: `request` is the operation's own (its `path` includes the base path,
   * its `baseUrl` is the origin of the `/Bulk` request). Never rejects.
   */
  runOperation(request: BulkOperationRequest, tenant: Tenant): Promise<OperationAnswer>;
}

/** What a handler receives for one authenticated, routed request. */
export interface HandlerContext {
  readonly request: ScimRequest;
  readonly tenant: Tenant;
  /** The `{id}` path segment, when the route has one. */
  readonly id: string;
  /** Absolute URL of the base path, e.g. `https://host/api/v1/scim/v2`. */
  readonly baseUrl: string;
  readonly config: HandlerConfig;
  /** The dispatcher that routed the request, which runs a `/Bulk` operation of this tenant. */
  readonly dispatcher: OperationRunner;
}

/** What a resource endpoint's handler receives: the request and the resource type routed to. */
export interface ResourceContext extends HandlerContext {
  /** The resource type the route names (`/Users`, `/Groups`, ...). */
  readonly endpoint: ResourceEndpoint;
  /** Absolute URL of that endpoint, e.g. `https://host/api/v1/scim/v2/Users`. */
  readonly url: string;
}

/** Answers one routed request. */
export type Handler = (context: HandlerContext) => Promise<ScimResponse>;

/** Answers one request routed to a resource type's endpoint. */
export type ResourceHandler = (context: ResourceContext) => Promise<ScimResponse>;
