import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_PATH } from '../../examples/server/events/events-route.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { ENDPOINT_NAMES } from '../../src/core/routes.js';
import { testConfig } from './test-config.js';

// The example server's /openapi.json describes exactly what that server serves: every route it
// answers (found over HTTP: a method it does not take answers 405 with `Allow`) is in the
// document, nothing else is, and every endpoint that answers 501 is named as such. The event
// feed, beside the SCIM base path, is described with a server of its own.

const auth = { authorization: 'Bearer k1' };
// A method no route takes: its 405 lists, in `Allow`, the methods the route does take.
const PROBE = 'OPTIONS';

interface Doc {
  info: { description: string };
  paths: Record<string, Record<string, unknown>>;
}

type Routes = Map<string, 'served' | 'not implemented'>;

async function allowedMethods(base: string, path: string): Promise<string[]> {
  const reply = await fetch(`${base}${path}`, { method: PROBE, headers: auth });
  await reply.arrayBuffer();
  if (reply.status === 404) return [];
  expect(reply.status, `${PROBE} ${path}`).toBe(405);
  return (reply.headers.get('allow') ?? '').split(/,\s*/).filter((m) => m !== '');
}

async function answers501(base: string, path: string, method: string): Promise<boolean> {
  const reply = await fetch(`${base}${path}`, { method, headers: auth });
  await reply.arrayBuffer();
  return reply.status === 501;
}

// Every route of the running server: the endpoints RFC 7644 defines and the resource types
// discovery lists, each as collection, item and `.search`; then the root search.
async function routesOf(base: string): Promise<Routes> {
  const types = (await (await fetch(`${base}/ResourceTypes`, { headers: auth })).json()) as {
    Resources: { endpoint: string }[];
  };
  const endpoints = new Set([
    ...ENDPOINT_NAMES.map((name) => `/${name}`),
    ...types.Resources.map((t) => t.endpoint),
  ]);
  const routes: Routes = new Map();
  // Each method is sent without a body to an id no resource has: nothing is created or changed.
  const add = async (template: string, path: string, methods: string[]) => {
    for (const method of methods) {
      const kind = (await answers501(base, path, method)) ? 'not implemented' : 'served';
      routes.set(`${method} ${template}`, kind);
    }
  };
  for (const endpoint of endpoints) {
    const item = await allowedMethods(base, `${endpoint}/probe-id`);
    const search = await allowedMethods(base, `${endpoint}/.search`);
    await add(endpoint, endpoint, await allowedMethods(base, endpoint));
    await add(`${endpoint}/{id}`, `${endpoint}/probe-id`, item);
    // On an endpoint without `.search`, `/.search` is just an item id.
    if (search.join() !== item.join())
      await add(`${endpoint}/.search`, `${endpoint}/.search`, search);
  }
  await add('/', '/', await allowedMethods(base, '/'));
  await add('/.search', '/.search', await allowedMethods(base, '/.search'));
  return routes;
}

// The SCIM operations the document describes (the feed is checked on its own).
function operations(doc: Doc): Set<string> {
  const ops = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path === EVENTS_PATH) continue;
    for (const method of Object.keys(item)) {
      if (method !== 'parameters') ops.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return ops;
}

interface FeedItem {
  servers: { url: string }[];
  get: {
    parameters: { name: string; in: string; schema: { minimum?: number; maximum?: number } }[];
    responses: Record<string, unknown>;
  };
}

describe.each([
  ['as configured by default', {}],
  ['with /Me served', { meHeader: 'x-user-id' }],
])("the example server's OpenAPI document, %s", (_, extra) => {
  let running: RunningServer;
  let routes: Routes;
  let doc: Doc;

  beforeAll(async () => {
    running = await startServer(testConfig(extra), { print: () => undefined });
    routes = await routesOf(running.url);
    const reply = await fetch(new URL('/openapi.json', running.url));
    expect(reply.status).toBe(200);
    doc = (await reply.json()) as Doc;
  });
  afterAll(async () => {
    await running.close();
  });

  it('describes every route the server serves', () => {
    const served = [...routes].filter(([, kind]) => kind === 'served').map(([op]) => op);
    // The walk found the resource types' routes, not only the fixed ones.
    expect(served.length).toBeGreaterThan(ENDPOINT_NAMES.length);
    const ops = operations(doc);
    expect(served.filter((op) => !ops.has(op))).toEqual([]);
  });

  it('describes nothing the server does not serve', () => {
    expect([...operations(doc)].filter((op) => routes.get(op) !== 'served')).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(await new Validator().validate(structuredClone(doc) as never)).toEqual({ valid: true });
  });

  it('describes the event feed where the server serves it, and it answers as described', async () => {
    const feed = doc.paths[EVENTS_PATH] as unknown as FeedItem;
    expect(Object.keys(feed).sort()).toEqual(['get', 'servers']);
    expect(feed.get.parameters.map((p) => [p.name, p.in])).toEqual([
      ['after', 'query'],
      ['limit', 'query'],
      ['types', 'query'],
    ]);
    expect(Object.keys(feed.get.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    const url = `${feed.servers[0]?.url}${EVENTS_PATH}`;
    expect(new URL(url).origin).toBe(new URL(running.url).origin);
    const allowed = await fetch(url, { method: PROBE, headers: auth });
    await allowed.arrayBuffer();
    expect(allowed.headers.get('allow')).toBe('GET, HEAD');
    const page = await fetch(`${url}?limit=1&types=user.created`, { headers: auth });
    expect(page.status).toBe(200);
    expect(Object.keys((await page.json()) as object).sort()).toEqual(['data', 'next']);
    // The page sizes the document bounds are the ones the server takes.
    const limit = feed.get.parameters.find((p) => p.name === 'limit')?.schema;
    const status = async (query: string) => {
      const reply = await fetch(`${url}?${query}`, { headers: auth });
      await reply.arrayBuffer();
      return reply.status;
    };
    expect(limit).toMatchObject({ minimum: 1, maximum: expect.any(Number) });
    expect(await status(`limit=${limit?.minimum}`)).toBe(200);
    expect(await status(`limit=${limit?.maximum}`)).toBe(200);
    expect(await status(`limit=${(limit?.minimum ?? 1) - 1}`)).toBe(400);
    expect(await status(`limit=${(limit?.maximum ?? 0) + 1}`)).toBe(400);
    const bad = await fetch(`${url}?after=not!a!cursor`, { headers: auth });
    expect([bad.status, ((await bad.json()) as { scimType: string }).scimType]).toEqual([
      400,
      'invalidCursor',
    ]);
    const anonymous = await fetch(url);
    await anonymous.arrayBuffer();
    expect(anonymous.status).toBe(401);
  });

  it('names every endpoint that answers 501 to every method, and no other', () => {
    const endpointOf = (op: string) => op.split(' ')[1]?.replace(/\/\{id\}$/, '') ?? '';
    const served = new Set(
      [...routes].filter(([, kind]) => kind === 'served').map(([op]) => endpointOf(op)),
    );
    const missing = new Set(
      [...routes]
        .filter(([op, kind]) => kind === 'not implemented' && !served.has(endpointOf(op)))
        .map(([op]) => endpointOf(op)),
    );
    const named = /Not described: ([^.]*), which answer 501/.exec(doc.info.description)?.[1];
    const listed = new Set(named === undefined ? [] : named.split(', '));
    expect([...listed].sort()).toEqual([...missing].sort());
  });
});
