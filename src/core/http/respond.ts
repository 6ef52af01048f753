import type { ScimError } from '../../errors/index.js';
import type { ScimResponse } from '../types.js';
import { RESPONSE_CONTENT_TYPE } from './media-type.js';

/** Builds a response whose body is `value` serialised as JSON. */
export function jsonResponse(
  status: number,
  value: unknown,
  headers?: Readonly<Record<string, string>>,
): ScimResponse {
  const all: Record<string, string> = { 'content-type': RESPONSE_CONTENT_TYPE };
  if (headers) for (const name in headers) all[name] = headers[name] as string;
  return { status, headers: all, body: JSON.stringify(value) };
}

/** Builds a response with no body (204, 304). */
export function emptyResponse(
  status: number,
  headers: Readonly<Record<string, string>> = {},
): ScimResponse {
  return { status, headers, body: undefined };
}

/** Builds the RFC 7644 §3.12 error response of a {@link ScimError}. */
export function errorResponse(error: ScimError): ScimResponse {
  return jsonResponse(error.status, error.toJSON(), error.headers);
}
