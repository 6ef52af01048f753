// scimkit on Hono 4 served by @hono/node-server (`scimkit/hono`), for the shared benchmark kit.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { scimHono } from 'scimkit/hono';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, ready, scim } from './service.mjs';

const app = new Hono();
app.all(`${PREFIX}/*`, scimHono(scim));
const server = serve({ fetch: app.fetch, port: PORT, hostname: HOST }, () =>
  ready('scimkit-hono', server),
);
server.keepAliveTimeout = KEEP_ALIVE_MS;
