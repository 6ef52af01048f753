// scimkit's Fastify 5 adapter on the stand-in core of stub-scim.mjs: what the adapter costs alone.
import Fastify from 'fastify';
import { scimFastify } from 'scimkit/fastify';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, ready } from './service.mjs';
import { stubScim } from './stub-scim.mjs';

const app = Fastify({ logger: false, keepAliveTimeout: KEEP_ALIVE_MS });
await app.register(scimFastify(stubScim), { prefix: PREFIX });
await app.listen({ port: PORT, host: HOST });
ready('scimkit-fastify-stub', app.server);
