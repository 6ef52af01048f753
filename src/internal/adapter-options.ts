/**
 * Options every scimkit adapter accepts.
 *
 * @typeParam Req - the framework's request object (Express `Request`, Fastify `FastifyRequest`,
 *   Hono `Context`, Web `Request`, node `IncomingMessage`).
 */
export interface AdapterOptions<Req> {
  /**
   * Builds the value handed through as `ScimRequest.context` (a logger, a transaction, the
   * Workers `env`), once per request.
   */
  readonly context?: (request: Req) => unknown;
  /**
   * Largest request body, in bytes, the adapter reads before it stops. Default: the service's
   * own limit (`createScim`'s `maxBodyBytes`, 1 MiB unless set), so the two always agree.
   */
  readonly maxBodyBytes?: number;
}

/**
 * Returns how many body bytes an adapter reads at most: one past the limit, so that the core,
 * which owns the size check, sees an oversized body and answers 413 without the adapter having
 * buffered all of it.
 */
export function bodyReadCap(
  scim: { readonly maxBodyBytes: number },
  options: AdapterOptions<never> | undefined,
): number {
  return (options?.maxBodyBytes ?? scim.maxBodyBytes) + 1;
}
