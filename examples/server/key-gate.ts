import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuse, retryLater } from './refuse.js';

/** Caps the SCIM requests in flight per API key. */
export interface KeyGate {
  /**
   * Lets a request in, counting it against its key until its response closes; returns false
   * when the key has as many in flight as allowed (the request is answered 429 here).
   */
  enter(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Caps the requests in flight per `Authorization` header value at `max`. The value is counted
 * by its SHA-256 hash, so the key itself is kept nowhere; a request without the header is not
 * counted (the service refuses it from its headers, before reading any body). One client then
 * cannot hold every connection, or the whole budget for bodies being read, by itself.
 */
export function keyGate(max: number): KeyGate {
  const inFlight = new Map<string, number>();
  const refusal = retryLater(
    429,
    `This API key already has ${max} requests in flight; send the request again once one is answered.`,
  );
  return {
    enter(req, res) {
      const auth = req.headers.authorization;
      if (auth === undefined) return true;
      const key = createHash('sha256').update(auth).digest('base64');
      const count = inFlight.get(key) ?? 0;
      if (count >= max) {
        refuse(req, res, refusal);
        return false;
      }
      inFlight.set(key, count + 1);
      res.once('close', () => {
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left === 0) inFlight.delete(key);
        else inFlight.set(key, left);
      });
      return true;
    },
  };
}
