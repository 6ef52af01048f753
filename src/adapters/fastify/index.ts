/**
 * The Fastify 5 adapter: `scimkit/fastify`.
 *
 * @module
 */
import type { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Scim } from '../../index.js';
import { type AdapterOptions, bodyLimits } from '../../internal/adapter-options.js';
import { buildScimHead } from '../../internal/build-scim-head.js';
import { readNodeBody } from '../../internal/read-node-body.js';
import { runScim } from '../../internal/run-scim.js';

export type { AdapterOptions } from '../../internal/adapter-options.js';

/**
 * Creates a Fastify 5 plugin that answers every request below its prefix with `scim`. Inside
 * the plugin's own scope it replaces Fastify's body parsers with one that hands the payload
 * stream over unread; the handler reads it only once the core has admitted the request from
 * its headers, and the core owns JSON errors, media-type checks and the size limit.
 *
 * @param scim - the service from `createScim`, with `basePath` equal to the prefix.
 * @param options - a `context` function, the body read limit and the body timeout.
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { scimFastify } from 'scimkit/fastify';
 *
 * const app = Fastify();
 * await app.register(scimFastify(scim), { prefix: '/api/v1/scim/v2' });
 * await app.listen({ port: 8080 });
 * ```
 */
export function scimFastify(
  scim: Scim,
  options?: AdapterOptions<FastifyRequest>,
): FastifyPluginAsync {
  const limits = bodyLimits(scim, options);
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { method, url, headers } = request;
    const head = buildScimHead(method, url, headers, `${request.protocol}://${request.host}`);
    // The payload stream the parser below handed over, or the raw request (a GET's body).
    const payload = (request.body as Readable | undefined) ?? request.raw;
    const read = () => readNodeBody(payload, limits);
    const response = await runScim(scim, head, options?.context, request, read);
    // A Buffer, because Fastify appends `; charset=utf-8` to a JSON media type sent as a string.
    const body = response.body === undefined ? undefined : Buffer.from(response.body);
    return reply.code(response.status).headers(response.headers).send(body);
  };
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.all('/', handler);
    app.all('/*', handler);
  };
}
