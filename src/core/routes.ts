import { scimErrors } from '../errors/index.js';
import { bulk } from './bulk/bulk-handler.js';
import { isClientText } from '../json/client-text.js';
import { previewJson } from '../json/preview-json.js';
import type { Handler, ResourceHandler } from './handlers/context.js';
import { createResource } from './handlers/create-resource.js';
import { deleteResource } from './handlers/delete-resource.js';
import {
  resourceTypes,
  schemas,
  serviceConfiguration,
  serviceProviderConfig,
} from './handlers/discovery.js';
import { getResource } from './handlers/get-resource.js';
import { listResources, searchResources } from './handlers/list-resources.js';
import { meHandlers } from './me/me-handler.js';
import { notImplemented } from './handlers/not-implemented.js';
import type { ResourceEndpoint } from './handlers/resource-endpoint.js';
import { patchResource } from './handlers/patch-resource.js';
import { replaceResource } from './handlers/replace-resource.js';
import { rootList, rootSearch } from './handlers/root-search.js';

type MethodTable<H> = Readonly<Partial<Record<string, H>>>;

/**
 * A matched route: its handler and the `{id}` segment, if any; for a resource type's endpoint
 * also the served resource type (`E`) the route names, which its handler is run with.
 */
export type RouteMatch<E = ResourceEndpoint> =
  | { readonly handler: Handler; readonly id: string; readonly endpoint?: undefined }
  | { readonly handler: ResourceHandler; readonly id: string; readonly endpoint: E };

/**
 * Finds the handler of a request path below the base path; see {@link routeTable}. `from`:
 * where in `path` the part below the base path starts (default 0), so that the caller need not
 * cut the base path off.
 */
export type Router<E> = (method: string, path: string, from?: number) => RouteMatch<E>;

const collection: MethodTable<ResourceHandler> = { GET: listResources, POST: createResource };
const item: MethodTable<ResourceHandler> = {
  GET: getResource,
  PUT: replaceResource,
  PATCH: patchResource,
  DELETE: deleteResource,
};
const search: MethodTable<ResourceHandler> = { POST: searchResources };
// Search at the root, across every resource type served (RFC 7644 §3.4.3).
const root: MethodTable<Handler> = { GET: rootList };
const rootDotSearch: MethodTable<Handler> = { POST: rootSearch };
const later: MethodTable<Handler> = {
  GET: notImplemented,
  POST: notImplemented,
  PUT: notImplemented,
  PATCH: notImplemented,
  DELETE: notImplemented,
};

/**
 * Every top-level endpoint RFC 7644 defines, as it spells them (`Users`, `Schemas`, ...): each
 * one is served, or answers 501. Resource types a host serves come on top.
 */
export const ENDPOINT_NAMES = [
  'Users',
  'Bulk',
  'Me',
  'ServiceProviderConfig',
  'ResourceTypes',
  'Schemas',
  'Groups',
] as const;

/** One row of the route table: a fixed endpoint, or a served resource type's. */
type Row<E> =
  | { readonly kind: 'fixed'; readonly name: string; readonly table: MethodTable<Handler> }
  | { readonly kind: 'resource'; readonly name: string; readonly endpoint: E };

const FIXED: readonly (readonly [string, MethodTable<Handler>])[] = [
  ['Users', later],
  ['Bulk', { POST: bulk }],
  ['Me', later],
  ['ServiceProviderConfig', { GET: serviceProviderConfig }],
  // Microsoft's SCIM test collection's name for it; 404 unless the profile answers it.
  ['serviceConfiguration', { GET: serviceConfiguration }],
  ['ResourceTypes', { GET: resourceTypes }],
  ['Schemas', { GET: schemas }],
  ['Groups', later],
];

// The fixed endpoints that have no items: `/Bulk/x` is no endpoint.
const SINGULAR: ReadonlySet<string> = new Set([
  'ServiceProviderConfig',
  'serviceConfiguration',
  'Bulk',
]);

function pick<H>(table: MethodTable<H>, method: string, what: string): H {
  const handler = Object.hasOwn(table, method) ? table[method] : undefined;
  if (!handler) {
    throw scimErrors.methodNotAllowed(`${method} is not allowed on ${what}.`, Object.keys(table));
  }
  return handler;
}

/** What else a route table serves besides its resource types. */
export interface RouteOptions {
  /** Serve `/Me` (the host gave a `me` hook); otherwise it answers 501. */
  readonly me?: boolean;
}

/**
 * Builds the route table of the resource types served, keyed by endpoint name as it is
 * spelled (`Users`, `Groups`, a host's `Classes`): each is one row answered by the generic
 * resource handlers; `/Bulk` runs its operations through the same table, and `/Me` is served
 * when `options.me` says so. Endpoints of RFC 7644 not served (`/Groups` without a group store,
 * `/Me` without a hook) answer 501. The router finds the handler of a request path below the base path
 * (`/Users`, `/Users/`, `/Users/{id}`, `/Users/.search`, ...), matching endpoint names in any
 * letter case. The root (`/`, GET) and `/.search` (POST) search across every resource type
 * served.
 *
 * The router throws ScimError 404 for an unknown route, 405 for a known route with another
 * method.
 */
export function routeTable<E>(
  served: ReadonlyMap<string, E>,
  options: RouteOptions = {},
): Router<E> {
  const rows = new Map<string, Row<E>>();
  for (const [name, table] of FIXED) rows.set(name, { kind: 'fixed', name, table });
  if (options.me === true) rows.set('Me', { kind: 'fixed', name: 'Me', table: meHandlers });
  for (const [name, endpoint] of served) rows.set(name, { kind: 'resource', name, endpoint });
  // Endpoint names match in any letter case (IdPs differ: `/users`, `/Users`).
  const byName = new Map([...rows.values()].map((row) => [row.name.toLowerCase(), row]));
  return (method, path, from = 0) => {
    const segments = path
      .slice(from)
      .split('/')
      .filter((segment) => segment !== '');
    const [first, second] = segments;
    if (first === undefined) return { handler: pick(root, method, '/'), id: '' };
    if (first === '.search' && second === undefined)
      return { handler: pick(rootDotSearch, method, '/.search'), id: '' };
    const row = byName.get(first.toLowerCase());
    if (!row || segments.length > 2)
      throw scimErrors.notFound(`No SCIM endpoint at ${previewJson(path.slice(from))}.`);
    if (row.kind === 'fixed') {
      const { table } = row;
      if (second === undefined) return { handler: pick(table, method, `/${first}`), id: '' };
      // A singular endpoint has no items: `/Bulk/x`, `/Me/x` (once served) are no endpoint.
      if (SINGULAR.has(row.name) || table === meHandlers)
        throw scimErrors.notFound(`No SCIM endpoint at ${previewJson(path.slice(from))}.`);
      return { handler: pick(table, method, `/${first}/{id}`), id: decodeSegment(second) };
    }
    const { endpoint } = row;
    if (second === undefined)
      return { handler: pick(collection, method, `/${first}`), id: '', endpoint };
    if (second === '.search')
      return { handler: pick(search, method, `/${first}/.search`), id: '', endpoint };
    return { handler: pick(item, method, `/${first}/{id}`), id: decodeSegment(second), endpoint };
  };
}

const usersOnly = routeTable(new Map([['Users', 'Users']]));

/**
 * Finds the handler of a request path below the base path (`/Users`, `/Users/`,
 * `/Users/{id}`, ...) in the route table of a server that serves Users and nothing else.
 *
 * @throws ScimError 404 for an unknown route, 405 for a known route with another method.
 */
export function matchRoute(method: string, path: string): RouteMatch<string> {
  return usersOnly(method, path);
}

function decodeSegment(segment: string): string {
  // Generated ids are URL-safe: most segments have nothing to decode.
  let id = segment;
  if (segment.includes('%')) {
    try {
      id = decodeURIComponent(segment);
    } catch {
      throw scimErrors.notFound(
        `The path segment ${previewJson(segment)} is not valid percent-encoding.`,
      );
    }
  }
  // No resource can have such an id (no store can hold U+0000): "not found", as for bad
  // percent-encoding, before any store sees it.
  if (!isClientText(id)) throw scimErrors.notFound(`No resource has the id ${previewJson(id)}.`);
  return id;
}
