// The Web adapters' fast path under @hono/node-server (the head and body from node's request)
// held to the plain Web path: the same head, the same body, and the plain path whenever node's
// request is not the one the Web `Request` stands for.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/internal/body-budget.js';
import type { BodyRead } from '../../src/internal/body-collector.js';
import { FetchRequestReader, splitRequestUrl } from '../../src/internal/fetch-translation.js';
import { NodeServerIncoming } from '../../src/internal/node-server-incoming.js';

const limits = { cap: 1_000, timeoutMs: 5_000, budget: new BodyBudget(1_000_000) };

interface Seen {
  readonly fast: boolean;
  readonly head: unknown;
  readonly plainHead: unknown;
  readonly body: string | undefined;
}

const text = (read: BodyRead | undefined) =>
  read?.body === undefined ? undefined : new TextDecoder().decode(read.body as Uint8Array);

/** Serves one request through node-server and reports what both paths made of it. */
async function seen(path: string, init: RequestInit): Promise<Seen> {
  let report: (seen: Seen) => void = () => undefined;
  const result = new Promise<Seen>((resolve) => (report = resolve));
  const server = await new Promise<Server>((resolve) => {
    const s = serve(
      {
        fetch: async (request, env) => {
          const fast = new NodeServerIncoming().of(request, env) !== undefined;
          const parts = new FetchRequestReader(limits).parts(request, env);
          // The plain path's head, from the Web `Request` only (it does not read the body).
          const plainHead = new FetchRequestReader(limits).parts(request, undefined).head;
          report({ fast, head: parts.head, plainHead, body: text(await parts.read?.()) });
          return new Response(null, { status: 204 });
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s as Server),
    );
  });
  try {
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}${path}`, init);
    return await result;
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

describe('FetchRequestReader under @hono/node-server', () => {
  it('takes the head from node and makes the same head as the Web path', async () => {
    const got = await seen('/scim/v2/Users?filter=userName%20eq%20%22a%22&x=%3F', {
      headers: { authorization: 'Bearer k', accept: 'application/scim+json', 'x-a': 'b' },
    });
    expect(got.fast).toBe(true);
    expect(got.head).toEqual(got.plainHead);
    expect(got.body).toBeUndefined();
  });

  it('reads the body from node, the same bytes the Web path would read', async () => {
    const body = JSON.stringify({ userName: 'é@example.com', n: 'x'.repeat(300) });
    const got = await seen('/scim/v2/Users', {
      method: 'POST',
      headers: { 'content-type': 'application/scim+json' },
      body,
    });
    expect(got.fast).toBe(true);
    expect(got.head).toEqual(got.plainHead);
    expect(got.body).toBe(body);
  });
});

describe('NodeServerIncoming', () => {
  const nodeServerIncoming = (request: Request, env: unknown) =>
    new NodeServerIncoming().of(request, env);
  const incoming = { headers: {}, on: () => undefined, readableDidRead: false };

  it('ignores an env whose node request the Web request does not hold', () => {
    const request = new Request('http://h/x');
    expect(nodeServerIncoming(request, { incoming })).toBeUndefined();
    expect(nodeServerIncoming(request, undefined)).toBeUndefined();
    expect(nodeServerIncoming(request, { incoming: 'x' })).toBeUndefined();
  });

  it('takes the node request only while nothing has read from it', () => {
    const key = Symbol('incoming');
    const held = (over: object) => {
      const node = { ...incoming, ...over };
      return [Object.assign(new Request('http://h/x'), { [key]: node }), { incoming: node }];
    };
    expect(nodeServerIncoming(...(held({}) as [Request, object]))).toBeDefined();
    expect(nodeServerIncoming(...(held({ readableDidRead: true }) as [Request, object]))).toBe(
      undefined,
    );
    const rawBody = { rawBody: Buffer.from('{}') };
    expect(nodeServerIncoming(...(held(rawBody) as [Request, object]))).toBeUndefined();
  });

  it('remembers where node-server keeps it, and still checks every request', () => {
    const finder = new NodeServerIncoming();
    const key = Symbol('incoming');
    const [a, b] = [{ ...incoming }, { ...incoming }];
    const holding = (node: object) => Object.assign(new Request('http://h/x'), { [key]: node });
    expect(finder.of(holding(a), { incoming: a })).toBe(a);
    expect(finder.of(holding(a), { incoming: b })).toBeUndefined();
    expect(finder.of(holding(b), { incoming: b })).toBe(b);
  });
});

describe('splitRequestUrl', () => {
  it('splits as new URL does: the origin, the path and the query, no fragment', () => {
    const parts = ({ origin, target }: { origin: string; target: string }) => {
      const mark = target.indexOf('?');
      const query = mark < 0 ? '' : target.slice(mark + 1);
      return { origin, path: mark < 0 ? target : target.slice(0, mark), query };
    };
    const urls = [
      'http://127.0.0.1:3000/api/v1/scim/v2/Users',
      'https://example.com/Users?filter=a%20eq%20%22b%22#frag',
      'http://h/Users?',
      'http://h/Users?a=b?c#d?e',
      'http://h:8080/',
      'http://h',
      'http://[::1]:8080/x/y?z',
    ];
    for (const url of urls) {
      const parsed = new URL(new Request(url).url);
      expect(parts(splitRequestUrl(new Request(url).url)), url).toEqual({
        origin: parsed.origin,
        path: parsed.pathname,
        query: parsed.search.slice(1),
      });
    }
  });
});
