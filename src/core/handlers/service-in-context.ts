import type { PatchContext } from '../../patch/patch-context.js';
import type { EndpointService, StoredResource } from './resource-endpoint.js';

/**
 * A resource type's operations built once for every compatibility profile: a PATCH names the
 * context (dialect rules, rule trace) it is read in, so every profile's writes to a resource
 * queue on the same per-id lock.
 */
export interface ProfileNeutralService<R extends StoredResource> extends Omit<
  EndpointService<R>,
  'patch'
> {
  /** PATCH, read in `ctx`; otherwise as {@link EndpointService.patch}. */
  patch(
    ctx: PatchContext,
    ...args: Parameters<EndpointService<R>['patch']>
  ): ReturnType<EndpointService<R>['patch']>;
}

/**
 * Returns the operations of `service` for the generic resource handlers under one set of
 * dialect switches: its PATCHes are read in `ctx` (the set's context, or a traced request's
 * copy of it); everything else is the service's own.
 */
export function serviceInContext<R extends StoredResource>(
  service: ProfileNeutralService<R>,
  ctx: PatchContext,
): EndpointService<R> {
  return {
    create: (tenant, input) => service.create(tenant, input),
    get: (tenant, id, shown) => service.get(tenant, id, shown),
    list: (tenant, query, shown) => service.list(tenant, query, shown),
    assertFilterSupported: (filter, text) => service.assertFilterSupported(filter, text),
    assertSortSupported: (path, text) => service.assertSortSupported(path, text),
    replace: (tenant, id, ifMatch, input) => service.replace(tenant, id, ifMatch, input),
    patch: (...args) => service.patch(ctx, ...args),
    delete: (tenant, id, ifMatch) => service.delete(tenant, id, ifMatch),
  };
}
