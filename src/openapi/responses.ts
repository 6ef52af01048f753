import { SCIM_MEDIA_TYPE } from '../core/http/media-type.js';
import type { JsonSchema } from './types.js';

/** The body of a request: the SCIM media type, or plain JSON, which the core reads alike. */
export function requestBody(schema: JsonSchema, description: string): JsonSchema {
  return {
    required: true,
    description,
    content: { [SCIM_MEDIA_TYPE]: { schema }, 'application/json': { schema } },
  };
}

/** A response with a body, which the core always sends as the SCIM media type. */
export function bodyResponse(
  description: string,
  schema: JsonSchema,
  headers: readonly string[] = [],
): JsonSchema {
  const response: JsonSchema = { description, content: { [SCIM_MEDIA_TYPE]: { schema } } };
  if (headers.length > 0) response.headers = headerRefs(headers);
  return response;
}

/** References to header components, by name. */
export function headerRefs(names: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

const errorBody = { $ref: '#/components/schemas/Error' };

// Every error status the core answers for a described operation, with its component name.
const ERRORS = {
  400: ['BadRequest', 'Bad request: see `scimType` and `detail`.'],
  401: ['Unauthorized', 'Missing, malformed or unknown API key.', 'WWW-Authenticate'],
  403: [
    'Forbidden',
    "The API key lacks the scope this request needs (a read-only key's write); nothing changed.",
  ],
  404: ['NotFound', 'No such resource in the tenant.'],
  408: ['RequestTimeout', 'The request body did not arrive in time.'],
  409: ['Conflict', '`uniqueness`: a unique attribute such as userName is taken in the tenant.'],
  412: ['PreconditionFailed', 'The resource changed since the version in If-Match.'],
  413: ['PayloadTooLarge', 'The request body is larger than the limit.'],
  415: ['UnsupportedMediaType', 'The body is not application/scim+json or application/json.'],
  429: ['TooManyRequests', "The host's rate limit refused the request.", 'Retry-After'],
  500: ['InternalError', 'An unexpected fault; the detail carries no internals.'],
  503: [
    'ServiceUnavailable',
    'The service cannot answer now and changed nothing: a store statement ran past its ' +
      'timeout, or too many large answers or request bodies are in flight. Send the request ' +
      'again after `Retry-After` seconds.',
    'Retry-After',
  ],
} as const satisfies Record<number, readonly [string, string] | readonly [string, string, string]>;

/** The HTTP statuses of the SCIM errors a described operation can answer. */
export type ErrorStatus = keyof typeof ERRORS;

/** The reusable SCIM error responses (RFC 7644 §3.12), one per status. */
export function errorResponseComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.values(ERRORS).map(([name, description, header]) => [
      name,
      bodyResponse(description, errorBody, header === undefined ? [] : [header]),
    ]),
  );
}

// What any operation may answer: no key or a bad one, a key without the scope (a key may hold
// none), the host's rate limit, a fault, and a moment without room (statement timeout, answers
// or bodies in flight).
const ANY_OPERATION = [401, 403, 429, 500, 503] as const;

/**
 * The responses entries of an operation's errors: references to the shared error responses,
 * with an operation-specific description where one is given (OpenAPI 3.1 lets a reference
 * override it).
 */
export function errorResponses(
  statuses: readonly ErrorStatus[],
  descriptions: Partial<Record<ErrorStatus, string>> = {},
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const status of [...statuses, ...ANY_OPERATION] as const) {
    const entry: JsonSchema = { $ref: `#/components/responses/${ERRORS[status][0]}` };
    const description = descriptions[status];
    if (description !== undefined) entry.description = description;
    out[status] = entry;
  }
  return out;
}
