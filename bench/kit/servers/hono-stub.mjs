// scimkit's Hono 4 on @hono/node-server adapter on the stand-in core of stub-scim.mjs: what the adapter costs alone.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { scimHono } from 'scimkit/hono';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, ready } from './service.mjs';
import { stubScim } from './stub-scim.mjs';

const app = new Hono();
app.all(`${PREFIX}/*`, scimHono(stubScim));
const server = serve({ fetch: app.fetch, port: PORT, hostname: HOST }, () =>
  ready('scimkit-hono-stub', server),
);
server.keepAliveTimeout = KEEP_ALIVE_MS;
