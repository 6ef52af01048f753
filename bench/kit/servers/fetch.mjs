// scimkit's Web fetch handler (`scimkit/fetch`) on Node, served by @hono/node-server's
// Request/Response bridge (no router), for the shared benchmark kit.
import { serve } from '@hono/node-server';
import { scimFetch } from 'scimkit/fetch';
import { HOST, KEEP_ALIVE_MS, PORT, ready, scim } from './service.mjs';

const server = serve({ fetch: scimFetch(scim), port: PORT, hostname: HOST }, () =>
  ready('scimkit-fetch', server),
);
server.keepAliveTimeout = KEEP_ALIVE_MS;
