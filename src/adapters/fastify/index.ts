/**
 * The Fastify 5 adapter: `scimkit/fastify`.
 *
 * @module
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Scim } from '../../index.js';
import { type AdapterOptions, bodyReadCap } from '../../internal/adapter-options.js';
import { buildScimRequest } from '../../internal/build-scim-request.js';
import { readNodeBody } from '../../internal/read-node-body.js';

export type { AdapterOptions } from '../../internal/adapter-options.js';

/**
 * Creates a Fastify 5 plugin that answers every request below its prefix with `scim`. Inside
 * the plugin's own scope it replaces Fastify's body parsers with one that hands the raw bytes
 * of any media type to the core, which owns JSON errors, media-type checks and the size limit.
 *
 * @param scim - the service from `createScim`, with `basePath` equal to the prefix.
 * @param options - a `context` function and the body read limit.
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
  const cap = bodyReadCap(scim, options);
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const baseUrl = `${request.protocol}://${request.host}`;
    const context = options?.context?.(request);
    const { method, url, headers, body } = request;
    const response = await scim.handle(
      buildScimRequest(method, url, headers, baseUrl, body, context),
    );
    // A Buffer, because Fastify appends `; charset=utf-8` to a JSON media type sent as a string.
    const payload = response.body === undefined ? undefined : Buffer.from(response.body);
    return reply.code(response.status).headers(response.headers).send(payload);
  };
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => {
      readNodeBody(payload, cap).then((body) => done(null, body), done);
    });
    app.all('/', handler);
    app.all('/*', handler);
  };
}
