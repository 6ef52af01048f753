/**
 * Options every scimkit adapter accepts.
 *
 * @typeParam Req - the framework's request object (Express `Request`, Fastify `FastifyRequest`,
 *   Hono `Context`, Web `Request`, node `IncomingMessage`).
 */
export interface AdapterOptions<Req> {
  /**
   * Builds the value handed through as `ScimRequest.context` (a logger, a transaction, the
   * Workers `env`), once per authenticated request. The core calls it: a throw answers the same
   * SCIM 500 on every adapter and reaches `onError`.
   */
  readonly context?: (request: Req) => unknown;
  /**
   * Largest request body, in bytes, the adapter reads before it stops. Default: the service's
   * own limit (`createScim`'s `maxBodyBytes`, 1 MiB unless set), so the two always agree.
   */
  readonly maxBodyBytes?: number;
  /**
   * Longest time, in ms, the adapter waits for a whole request body once it starts reading;
   * then the core answers 408 and the connection is closed. Default: the service's own
   * (`createScim`'s `bodyTimeoutMs`, 10,000 unless set).
   */
  readonly bodyTimeoutMs?: number;
}

/** How much of a body an adapter reads, and for how long. */
export interface BodyLimits {
  /**
   * Bytes read at most: one past the limit, so that the core, which owns the size check, sees
   * an oversized body and answers 413 without the adapter having buffered all of it.
   */
  readonly cap: number;
  /** Milliseconds allowed for the whole body. */
  readonly timeoutMs: number;
}

/** Returns the body limits of an adapter: its own options, else the service's. */
export function bodyLimits(
  scim: { readonly maxBodyBytes: number; readonly bodyTimeoutMs: number },
  options: AdapterOptions<never> | undefined,
): BodyLimits {
  return {
    cap: (options?.maxBodyBytes ?? scim.maxBodyBytes) + 1,
    timeoutMs: options?.bodyTimeoutMs ?? scim.bodyTimeoutMs,
  };
}
