import { describe, expect, it } from 'vitest';
import { notImplemented } from '../../src/core/handlers/not-implemented.js';
import { ENDPOINT_NAMES, matchRoute } from '../../src/core/routes.js';
import { isScimError } from '../../src/index.js';
import { scimOpenApi } from '../../src/openapi/index.js';
import { notImplementedEndpoints } from '../../src/openapi/openapi-document.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

type Served = 'served' | 'not implemented' | 'none';

function probe(method: string, path: string) {
  try {
    const { handler } = matchRoute(method, path);
    return handler;
  } catch (error) {
    // 404 (no such route) or 405 (not with this method): no operation.
    if (isScimError(error) && (error.status === 404 || error.status === 405)) return undefined;
    throw error;
  }
}

// Walks the route table: every endpoint name, every method, on the collection, an item and
// `.search`; `.search` counts only where it is not simply an item id.
function routeTable(): Map<string, Served> {
  const routes = new Map<string, Served>();
  for (const name of ENDPOINT_NAMES) {
    for (const method of METHODS) {
      const item = probe(method, `/${name}/some-id`);
      const shapes = [
        [`/${name}`, probe(method, `/${name}`)],
        [`/${name}/{id}`, item],
        [`/${name}/.search`, probe(method, `/${name}/.search`)],
      ] as const;
      for (const [path, handler] of shapes) {
        if (handler === undefined) continue;
        if (path.endsWith('.search') && handler === item) continue;
        routes.set(`${method} ${path}`, handler === notImplemented ? 'not implemented' : 'served');
      }
    }
  }
  // The root: a search across every resource type (`/`, `/.search`).
  for (const method of METHODS) {
    for (const path of ['/', '/.search']) {
      const handler = probe(method, path);
      if (handler !== undefined) routes.set(`${method} ${path}`, 'served');
    }
  }
  return routes;
}

function documented(): Set<string> {
  const ops = new Set<string>();
  for (const [path, item] of Object.entries(scimOpenApi().paths)) {
    for (const method of Object.keys(item)) {
      if (method !== 'parameters') ops.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return ops;
}

describe('the OpenAPI document covers the route table', () => {
  const routes = routeTable();
  const ops = documented();

  it('finds the routes (the walk itself works)', () => {
    expect(routes.get('POST /Users')).toBe('served');
    expect(routes.get('POST /Users/.search')).toBe('served');
    expect(routes.get('GET /')).toBe('served');
    expect(routes.get('POST /.search')).toBe('served');
    expect(routes.get('GET /Schemas/{id}')).toBe('served');
    expect(routes.has('GET /ServiceProviderConfig/{id}')).toBe(false);
    expect(routes.has('POST /Schemas')).toBe(false);
  });

  it('describes every route the core serves', () => {
    const served = [...routes].filter(([, s]) => s === 'served').map(([op]) => op);
    expect(served.filter((op) => !ops.has(op))).toEqual([]);
  });

  it('describes nothing the core does not serve', () => {
    expect([...ops].filter((op) => routes.get(op) !== 'served')).toEqual([]);
  });

  it('names every endpoint that answers 501, and only those', () => {
    const fromTable = new Set(
      [...routes]
        .filter(([, s]) => s === 'not implemented')
        .map(([op]) => op.split(' ')[1]?.replace(/\/\{id\}$/, '')),
    );
    expect(notImplementedEndpoints().sort()).toEqual([...fromTable].sort());
    const { description } = scimOpenApi().info;
    for (const endpoint of fromTable) expect(description).toContain(`${endpoint}`);
  });
});
