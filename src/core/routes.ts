import { scimErrors } from '../errors/index.js';
import { isClientText } from '../json/client-text.js';
import { previewJson } from '../json/preview-json.js';
import type { Handler } from './handlers/context.js';
import { createUser } from './handlers/create-user.js';
import { deleteUser } from './handlers/delete-user.js';
import { resourceTypes, schemas, serviceProviderConfig } from './handlers/discovery.js';
import { getUser } from './handlers/get-user.js';
import { listUsers, searchUsers } from './handlers/list-users.js';
import { notImplemented } from './handlers/not-implemented.js';
import { patchUser } from './handlers/patch-user.js';
import { replaceUser } from './handlers/replace-user.js';

type MethodTable = Readonly<Partial<Record<string, Handler>>>;

/** A matched route: its handler and the `{id}` segment, if any. */
export interface RouteMatch {
  readonly handler: Handler;
  readonly id: string;
}

const usersCollection: MethodTable = { GET: listUsers, POST: createUser };
const userItem: MethodTable = {
  GET: getUser,
  PUT: replaceUser,
  PATCH: patchUser,
  DELETE: deleteUser,
};
const later: MethodTable = {
  GET: notImplemented,
  POST: notImplemented,
  PUT: notImplemented,
  PATCH: notImplemented,
  DELETE: notImplemented,
};

/**
 * Every top-level endpoint the route table knows, as RFC 7644 spells it (`Users`, `Schemas`,
 * ...), including those that answer 501.
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

// Endpoint names are matched without case: IdPs differ (`/users`, `/Users`).
const topLevel: Readonly<Record<string, MethodTable>> = {
  users: usersCollection,
  bulk: later,
  me: later,
  serviceproviderconfig: { GET: serviceProviderConfig },
  resourcetypes: { GET: resourceTypes },
  schemas: { GET: schemas },
  groups: later,
};
// The same tables under the names as RFC 7644 spells them, which most clients use: found
// without lower-casing the segment first.
const spelled: ReadonlyMap<string, MethodTable> = new Map(
  ENDPOINT_NAMES.map((name) => [name, topLevel[name.toLowerCase()] as MethodTable]),
);

function pick(table: MethodTable, method: string, what: string): Handler {
  const handler = Object.hasOwn(table, method) ? table[method] : undefined;
  if (!handler) {
    throw scimErrors.methodNotAllowed(`${method} is not allowed on ${what}.`, Object.keys(table));
  }
  return handler;
}

/**
 * Finds the handler of a request path below the base path (`/Users`, `/Users/`,
 * `/Users/{id}`, ...).
 *
 * @throws ScimError 404 for an unknown route, 405 for a known route with another method.
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const [first, second, third] = leadingSegments(path);
  const table = first === undefined ? undefined : (spelled.get(first) ?? inAnyCase(first));
  if (!table || third !== undefined)
    throw scimErrors.notFound(`No SCIM endpoint at ${previewJson(path)}.`);
  if (second === undefined) return { handler: pick(table, method, `/${first}`), id: '' };
  if (table !== usersCollection) {
    if (table === topLevel.serviceproviderconfig)
      throw scimErrors.notFound(`No SCIM endpoint at ${previewJson(path)}.`);
    return { handler: pick(table, method, `/${first}/{id}`), id: decodeSegment(second) };
  }
  if (second === '.search') {
    return { handler: pick({ POST: searchUsers }, method, '/Users/.search'), id: '' };
  }
  return { handler: pick(userItem, method, '/Users/{id}'), id: decodeSegment(second) };
}

function inAnyCase(segment: string): MethodTable | undefined {
  const name = segment.toLowerCase();
  // Own properties only: `__proto__` or `constructor` must not find Object.prototype.
  return Object.hasOwn(topLevel, name) ? topLevel[name] : undefined;
}

// The first three non-empty segments, as `path.split('/').filter(...)` would give them, without
// building arrays for every segment of every request: a third one only means "too deep".
function leadingSegments(path: string): string[] {
  const segments: string[] = [];
  for (let start = 0; start <= path.length && segments.length < 3;) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (end > start) segments.push(path.slice(start, end));
    start = end + 1;
  }
  return segments;
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
