import type { ListQuery, ListSeekResult } from '../../contracts/store-query.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import type { Projection, Projector } from '../../schema/project-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { ResourceInput } from '../../schema/validate-resource-input.js';
import type { ResponseAllowance } from '../budget/response-allowance.js';

/** A resource as a service returns it: SCIM JSON with an `id` and a versioned `meta`. */
export interface StoredResource {
  readonly id: string;
  readonly meta: { readonly version: string; readonly location?: string };
}

/** One page of resources and how many match in all. */
export interface ResourcePage<R extends StoredResource = StoredResource> {
  readonly totalResults: number;
  readonly resources: readonly R[];
  /** For a keyset query (`ListQuery.seek`): the page's places, and whether more follow. */
  readonly seek?: ListSeekResult;
}

/**
 * The operations behind one resource type's endpoints, in the terms of SCIM requests: what the
 * generic handlers call. A service keeps its resource's own rules (the User's password hook and
 * account status, the Group's memberships); the handlers keep what every resource shares
 * (bodies, projection, ETags, paging, responses).
 */
export interface EndpointService<R extends StoredResource = StoredResource> {
  /** Creates a resource from a validated POST body. */
  create(tenant: string, input: ResourceInput): Promise<R>;
  /**
   * Reads a resource or throws 404. `shown` is what the response will show: a service may
   * leave out what it would not (a group's members, when the response excludes them).
   */
  get(tenant: string, id: string, shown: Projection): Promise<R>;
  /** Lists resources, as `get` reads each. */
  list(tenant: string, query: ListQuery, shown: Projection): Promise<ResourcePage<R>>;
  /** Throws 400 `invalidFilter` when the store declares it cannot answer `filter`. */
  assertFilterSupported(filter: Filter, text: string): void;
  /** Throws 400 `invalidValue` when the store declares it cannot sort by `path`. */
  assertSortSupported(path: AttributePath, text: string): void;
  /** Replaces a resource from a validated PUT body (404, 412 for a stale If-Match). */
  replace(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    input: ResourceInput,
  ): Promise<R>;
  /**
   * Applies a PatchOp message body, all operations or none (404, 412, 400). `shown` is what
   * the response will show, `undefined` when it has no body (only the `ETag` of the result
   * is read).
   */
  patch(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    body: unknown,
    shown: Projection | undefined,
  ): Promise<R>;
  /** Deletes a resource (404, 412 for a stale If-Match). */
  delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void>;
}

/**
 * One resource type as the core serves it: a row of the route table. The generic handlers
 * (`create-resource.ts`, `get-resource.ts`, ...) answer every endpoint from this object alone.
 */
export interface ResourceEndpoint {
  /** The compiled resource type: schemas, body reader, path resolver, dialect rules. */
  readonly type: CompiledResourceType;
  /** Its operations. */
  readonly service: EndpointService;
  /** Parses and checks a filter text in this type (see `filterReader`). */
  readonly readFilter: (text: string) => Filter;
  /** Parses a filter text under this type's rules, unchecked (see `filterParser`). */
  readonly parseFilter: (text: string) => Filter;
  /**
   * Whether the store behind pages by keyset (`capabilities.keysetPaging`), so the endpoint
   * answers RFC 9865 cursors. Omitted: a cursor answers 400 `invalidCursor`.
   */
  readonly keysetPaging?: boolean;
  /**
   * Adds what depends on the request's base URL to a resource, beyond `meta.location` (a
   * group's members' `$ref`); returns the resource itself when there is nothing to add.
   * Omitted: nothing to add.
   */
  readonly present?: (resource: StoredResource, baseUrl: string) => StoredResource;
  /**
   * Adds what a response shows but the store does not keep with the resource (the User's
   * computed `groups`), for every resource of a response at once, so a store can answer a page
   * with one read. Called before `present`; `project` is the request's projection (undefined:
   * none), so nothing is read for what the response leaves out. Resolves to the resources as
   * they are when there is nothing to add.
   * What it reads that may be large (a group's members) it reserves in the answer's
   * `allowance`, returning only the leading resources that fit (see `readMembers`).
   * Omitted: nothing to add.
   */
  readonly expand?: (
    tenant: string,
    resources: readonly StoredResource[],
    project: Projector | undefined,
    baseUrl: string,
    allowance: ResponseAllowance,
  ) => Promise<readonly StoredResource[]>;
  /**
   * Whether a PATCH without `attributes` / `excludedAttributes` answers `204 No Content` with
   * the `ETag` (RFC 7644 §3.5.2 allows it) instead of 200 with the whole resource: a group's,
   * so that a one-member change never reads a list of 100,000 members to answer.
   */
  readonly patchAnswersNoContent?: boolean;
}
