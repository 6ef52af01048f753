import type { PatchContext } from '../../patch/patch-context.js';
import type { ScimGroup } from '../../schema/group-schema.js';
import type { ResourceService } from '../handlers/resource-endpoint.js';
import type { GroupService } from './group-service.js';

/**
 * Returns the Group's operations for the generic resource handlers under one set of dialect
 * switches: the one {@link GroupService} of the server, whose PATCHes are read in `patch` (the
 * set's context, or a traced request's copy of it). Every profile thus shares one service and
 * one write lock per group; only the PATCH context differs.
 */
export function groupEndpointService(
  groups: GroupService,
  patch: PatchContext,
): ResourceService<ScimGroup> {
  return {
    create: (tenant, input) => groups.create(tenant, input),
    get: (tenant, id, shown) => groups.get(tenant, id, shown),
    list: (tenant, query, shown) => groups.list(tenant, query, shown),
    assertFilterSupported: (filter, text) => groups.assertFilterSupported(filter, text),
    assertSortSupported: (path, text) => groups.assertSortSupported(path, text),
    replace: (tenant, id, ifMatch, input) => groups.replace(tenant, id, ifMatch, input),
    patch: (tenant, id, ifMatch, body, shown) =>
      groups.patch(patch, tenant, id, ifMatch, body, shown),
    delete: (tenant, id, ifMatch) => groups.delete(tenant, id, ifMatch),
  };
}
