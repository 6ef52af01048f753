import type { ListQuery } from '../../contracts/store-query.js';
import type { ResourceEndpoint, StoredResource } from '../handlers/resource-endpoint.js';

/**
 * Reads every resource of a tenant of one type, a page at a time, in id order: by keyset when
 * the store pages so (a resource created or deleted meanwhile moves no other), else by index.
 * Only one page is held at once.
 */
export async function* resourcePages(
  endpoint: ResourceEndpoint,
  tenant: string,
  pageSize: number,
): AsyncGenerator<readonly StoredResource[]> {
  let startIndex = 1;
  let last: string | undefined;
  for (;;) {
    const query: ListQuery = endpoint.keysetPaging
      ? { startIndex: 1, count: pageSize, seek: last === undefined ? {} : { from: { id: last } } }
      : { startIndex, count: pageSize };
    const page = await endpoint.service.list(tenant, query, {});
    const { resources } = page;
    if (resources.length > 0) yield resources;
    const more = page.seek ? page.seek.more : resources.length === pageSize;
    if (!more || resources.length === 0) return;
    startIndex += resources.length;
    last = resources[resources.length - 1]?.id;
  }
}
