import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeInStages } from '../../src/internal/close-in-stages.js';
import { ScimError } from '../../src/index.js';

/** Seconds a refused client is asked to wait before it sends the request again. */
export const RETRY_AFTER_SECONDS = 1;

/** A SCIM error that asks the client to retry after {@link RETRY_AFTER_SECONDS}. */
export function retryLater(status: 429 | 503, detail: string): ScimError {
  return new ScimError(status, detail, {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
}

/**
 * Answers `error` as a SCIM error without reading the request's body, and closes the
 * connection as the SCIM adapter does after an early answer: in stages, so that a client still
 * uploading reads the answer instead of a reset.
 */
export function refuse(req: IncomingMessage, res: ServerResponse, error: ScimError): void {
  const body = JSON.stringify(error);
  closeInStages(req);
  res
    .writeHead(error.status, {
      ...error.headers,
      'content-type': 'application/scim+json',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    })
    .end(body);
}
