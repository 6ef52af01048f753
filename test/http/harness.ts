import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { Hono } from 'hono';
import type { AdapterOptions, Scim } from '../../src/index.js';
import { scimExpress } from '../../src/adapters/express/index.js';
import { scimFastify } from '../../src/adapters/fastify/index.js';
import { scimFetch } from '../../src/adapters/fetch/index.js';
import { scimHono } from '../../src/adapters/hono/index.js';
import { scimNode } from '../../src/adapters/node/index.js';
import { closeInStages } from '../../src/internal/close-in-stages.js';

/** Where every target mounts the service. */
export const MOUNT = '/api/v1/scim/v2';

/** A server listening on loopback. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>`, the `baseUrl` the core should see. */
  readonly origin: string;
  /** `origin` + {@link MOUNT}. */
  readonly url: string;
  /** The `node:http` server underneath, when the target runs in this process. */
  readonly server?: Server;
  close(): Promise<void>;
}

/** Options the harness hands to every adapter; `context` receives the framework's request. */
export type HarnessOptions = AdapterOptions<unknown>;

/** One framework with the scimkit adapter mounted at {@link MOUNT}. */
export interface Target {
  readonly name: string;
  /**
   * The runtime closes a connection it answered before reading the upload, without lingering
   * (docs/adapters.md): a client still uploading may then see the connection broken instead of
   * reading the answer.
   */
  readonly mayBreakUpload?: boolean;
  start(scim: Scim, options?: HarnessOptions): Promise<RunningServer>;
}

function listening(server: Server): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(running(server)));
  });
}

function running(server: Server, close?: () => Promise<void>): RunningServer {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { origin, url: origin + MOUNT, server, close: close ?? stop };
}

/** Bridges node:http to a Fetch handler the way Bun, Deno or Workers would call it. */
function fetchBridge(handler: (request: Request) => Promise<Response>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      for (const item of Array.isArray(value) ? value : [value ?? '']) headers.append(name, item);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    // An absolute-form target (`GET http://host/path`) is already the whole URL.
    const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host}`), {
      method: req.method ?? 'GET',
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
      duplex: 'half',
    } as RequestInit);
    void handler(request).then(async (response) => {
      // Like a careful runtime, read the rest of an upload after an answer that closes, so the
      // client reads the answer before the connection goes (src/internal/close-in-stages.ts).
      if (response.headers.get('connection') === 'close') closeInStages(req);
      // Like those runtimes, send a body known in full with its Content-Length.
      res.statusCode = response.status;
      for (const [name, value] of response.headers) res.setHeader(name, value);
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  };
}

/** The targets: Express 5 and 4, Fastify 5, Hono 4, Fetch (bridged, and on node-server), node:http. */
export const targets: readonly Target[] = [
  {
    name: 'express 5',
    start: (scim, options) => {
      const app = express();
      app.use(MOUNT, scimExpress(scim, options));
      return listening(createServer(app));
    },
  },
  {
    name: 'express 4',
    start: (scim, options) => {
      const app = express4();
      app.use(MOUNT, scimExpress(scim, options));
      return listening(createServer(app));
    },
  },
  {
    name: 'fastify 5',
    start: async (scim, options) => {
      // Closing must not wait for keep-alive sockets still uploading an oversized body.
      const app = Fastify({ forceCloseConnections: true });
      await app.register(scimFastify(scim, options), { prefix: MOUNT });
      await app.listen({ port: 0, host: '127.0.0.1' });
      return running(app.server, () => app.close());
    },
  },
  {
    name: 'hono 4',
    start: (scim, options) =>
      new Promise((resolve) => {
        const app = new Hono();
        app.all(`${MOUNT}/*`, scimHono(scim, options));
        const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
          resolve(running(server as Server)),
        );
      }),
  },
  {
    name: 'fetch',
    start: (scim, options) => listening(createServer(fetchBridge(scimFetch(scim, options)))),
  },
  {
    // node-server hands the handler `{ incoming, outgoing }`: the adapter reads node's request.
    name: 'fetch on @hono/node-server',
    start: (scim, options) =>
      new Promise((resolve) => {
        const server = serve(
          { fetch: scimFetch(scim, options), port: 0, hostname: '127.0.0.1' },
          () => resolve(running(server as Server)),
        );
      }),
  },
  {
    name: 'node:http',
    start: (scim, options) => listening(createServer(scimNode(scim, options))),
  },
];
