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
  /**
   * Most bytes of request bodies the adapter holds at once while reading them, for all its
   * requests together (each call of `scimNode`, `scimExpress`, ... has its own). A body that
   * finds no room is answered 503 with `Retry-After` and its connection closed, instead of
   * memory growing with every stalled upload. Default 64 MiB.
   */
  readonly maxBufferedBodyBytes?: number;
}
