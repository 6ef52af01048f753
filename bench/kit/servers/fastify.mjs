// scimkit on Fastify 5 (`scimkit/fastify`), for the shared benchmark kit.
import Fastify from 'fastify';
import { scimFastify } from 'scimkit/fastify';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, ready, scim } from './service.mjs';

const app = Fastify({ logger: false, keepAliveTimeout: KEEP_ALIVE_MS });
await app.register(scimFastify(scim), { prefix: PREFIX });
await app.listen({ port: PORT, host: HOST });
ready('scimkit-fastify', app.server);
