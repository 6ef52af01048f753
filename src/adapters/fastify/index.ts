/**
 * The Fastify 5 adapter: `scimkit/fastify`.
 *
 * @module
 */
import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import type { AdapterOptions, Scim } from '../../index.js';
import { bodyLimits } from '../../internal/body-limits.js';
import { buildScimHead } from '../../internal/build-scim-head.js';
import { lingerIfClosing } from '../../internal/close-in-stages.js';
import { hasNoBody, readNodeBody } from '../../internal/read-node-body.js';
import { runScim } from '../../internal/run-scim.js';

/** The reply serializer of every SCIM answer: the core's text, sent unchanged. */
const asIs = (text: unknown): string => text as string;

/**
 * Creates a Fastify 5 plugin that answers every request below its prefix with `scim`. It answers
 * in the plugin's own `onRequest` hook, before Fastify's media-type check and body parsing, so
 * the core decides everything (the key before the body, SCIM errors for any media type); the
 * body is read from the raw request only once the core has admitted the request.
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
  // A callback hook that answers and never calls `done`: the chain stops there, as after an
  // async hook that replied, without a promise for Fastify to wait on.
  const answer: onRequestHookHandler = (request, reply, done) => {
    const { method, url, headers, raw } = request;
    const head = buildScimHead(method, url, headers, `${request.protocol}://${request.host}`);
    // Most GETs announce no body: no read and no promise turn for them, as in the node adapter.
    const read = hasNoBody(raw.headers) ? undefined : () => readNodeBody(raw, limits);
    void runScim(scim, head, options?.context, request, read).then((response) => {
      try {
        lingerIfClosing(raw, response);
        // The text as it is: with a serializer set, Fastify neither serialises a string again
        // nor appends `; charset=utf-8` to its JSON media type. (A Buffer would do that too, but
        // node writes a large Buffer at about twice the cost of the same text.)
        reply.code(response.status).headers(response.headers).serializer(asIs).send(response.body);
      } catch (error) {
        done(error as Error);
      }
    });
  };
  return async (app) => {
    // Replying here ends the request: Fastify runs no parser and no route handler after it.
    app.addHook('onRequest', answer);
    const answered = (_request: FastifyRequest, reply: FastifyReply) => reply;
    app.all('/', answered);
    app.all('/*', answered);
  };
}
