import { ScimError, type ScimErrorBody } from '../../errors/index.js';
import { readJsonBody } from '../http/read-json-body.js';
import { jsonResponse } from '../http/respond.js';
import { BULK_OPERATION, type BulkOperationRequest, type Handler } from '../handlers/context.js';
import { readBulkRequest, type BulkOperation } from './bulk-request.js';
import { runBulk, type OperationResult } from './run-bulk.js';
import { BULK_RESPONSE_SCHEMA } from '../../schema/urns.js';
import { isJsonObject } from '../../json/json-value.js';
import { keysSentIn } from '../host-types/unique-keys.js';
import type { ResourceEndpoint } from '../handlers/resource-endpoint.js';

/** One operation of a BulkResponse. */
export interface BulkResponseOperation {
  method?: string;
  bulkId?: string;
  version?: string;
  location?: string;
  status: string;
  response?: ScimErrorBody;
}

// Why a bulk operation's path does not name a served resource type the way its method needs
// (POST: the collection; PUT, PATCH, DELETE: one resource), or `undefined` when it does.
// `served` holds the endpoints (`/Users`), `names` the same lower-cased without the slash
// (`users`): both worked out once per request.
function checkPath(
  path: string,
  method: string,
  served: readonly string[],
  names: readonly string[],
): string | undefined {
  if (!path.startsWith('/') || path.includes('?') || path.includes('#'))
    return pathProblem(path, method, served);
  const [, name = '', id, ...deeper] = path.split('/');
  if (!names.includes(name.toLowerCase())) return pathProblem(path, method, served);
  if (method === 'POST') return id === undefined ? undefined : pathProblem(path, method, served);
  if (id === undefined || deeper.length > 0) return pathProblem(path, method, served);
  return id !== '' && id !== '.search' ? undefined : pathProblem(path, method, served);
}

// checkPath's answer for a path it refuses.
function pathProblem(path: string, method: string, served: readonly string[]): string {
  return (
    `"path" ${JSON.stringify(path)} must name ${method === 'POST' ? 'a resource endpoint' : 'one resource'}` +
    ` of ${served.join(', ')}${method === 'POST' ? '' : ' ("/Users/{id}")'}, without a query.`
  );
}

// The results of operations that created nothing.
const FAILED: OperationResult = { failed: true };
const DONE: OperationResult = { failed: false };

/**
 * POST /Bulk: runs each operation of a BulkRequest as an internal request of the same tenant,
 * through the same route table, handlers and services as the request sent alone (validation,
 * dialect rules, events, the welcome email, versions; `version` is its If-Match), and answers
 * 200 with a BulkResponse of every operation run. `bulkId:<id>` references are resolved across
 * operations in any order; see {@link runBulk}. Operations are not one transaction: each is
 * atomic, and what ran before a failure stays (docs/bulk.md).
 *
 * @throws ScimError 413 when the body exceeds `maxBulkPayloadBytes` or the operations
 *   `maxBulkOperations`; 400 for a message that is not a BulkRequest.
 * @see RFC 7644 §3.7
 */
export const bulk: Handler = async (context) => {
  const { request, tenant, config } = context;
  const body = readJsonBody(request, config.maxBulkPayloadBytes);
  const { operations, failOnErrors } = readBulkRequest(body, config.maxBulkOperations);
  const results: (BulkResponseOperation | undefined)[] = operations.map(() => undefined);
  const served = config.endpoints.map((e) => e.type.endpoint);
  const names = served.map((e) => e.slice(1).toLowerCase());
  // The origin the /Bulk request was answered for: its base URL without the base path.
  const origin = context.baseUrl.slice(0, context.baseUrl.length - config.basePath.length);

  const entry = (op: BulkOperation, status: number): BulkResponseOperation => {
    const out: BulkResponseOperation = { status: String(status) };
    if (op.method !== undefined) out.method = op.method;
    if (op.bulkId !== undefined) out.bulkId = op.bulkId;
    return out;
  };

  // Room for an operation's answer, before it runs: what has run is always answered.
  const admit = (index: number, path: string): boolean => {
    const bytes = entryBytes(operations[index] as BulkOperation, path, context.baseUrl);
    if (!allowance.reserve(bytes)) {
      if (!ran) throw allowance.refusal(bytes);
      return false;
    }
    ran = true;
    return true;
  };

  const dispatch = async (index: number, path: string, data: unknown): Promise<OperationResult> => {
    const op = operations[index] as BulkOperation;
    const method = op.method as string;
    const problem = checkPath(path, method, served, names);
    if (problem !== undefined) {
      results[index] = { ...entry(op, 400), response: errorOf(400, problem) };
      return FAILED;
    }
    const headers: Record<string, string> = { 'content-type': 'application/scim+json' };
    if (op.version !== undefined) headers['if-match'] = op.version;
    // The operation's own request, below the same base path and origin as the /Bulk request.
    const inner: { -readonly [K in keyof BulkOperationRequest]: BulkOperationRequest[K] } = {
      [BULK_OPERATION]: true,
      method,
      path: `${config.basePath}${path}`,
      headers,
    };
    if (method !== 'DELETE') inner.body = data;
    if (origin !== '') inner.baseUrl = origin;
    if (request.context !== undefined) inner.context = request.context;
    const answer = await context.dispatcher.runOperation(inner, tenant);
    const out = entry(op, answer.status);
    const { error, resource } = answer;
    const { location, etag } = answer.headers;
    if (method === 'POST' && error === undefined) {
      if (location !== undefined) out.location = location;
    } else if (method !== 'POST') {
      out.location = `${context.baseUrl}${path}`;
    }
    if (etag !== undefined && error === undefined) out.version = etag;
    if (error !== undefined) out.response = error.toJSON();
    results[index] = out;
    if (error !== undefined) return FAILED;
    // The id a POST created, for the operations that refer to its bulkId.
    if (method === 'POST' && resource !== undefined)
      return { failed: false, createdId: resource.id };
    return DONE;
  };

  const refuse = (index: number, error: ScimError) => {
    results[index] = {
      ...entry(operations[index] as BulkOperation, error.status),
      response: error.toJSON(),
    };
  };

  const allowance = config.responses.open();
  let ran = false;
  try {
    await runBulk(operations, failOnErrors, config.bulkConcurrency, {
      admit,
      dispatch,
      refuse,
      keysOf: (path, data) => keysOfPost(path, data, config.endpoints),
    });
    return jsonResponse(200, {
      schemas: [BULK_RESPONSE_SCHEMA],
      Operations: results.filter((r) => r !== undefined),
    });
  } finally {
    allowance.close();
  }
};

/**
 * The most bytes one operation's entry in the BulkResponse can take: its status, method,
 * bulkId, version and location (the base URL and its path), and an error body, each character
 * counted at the three bytes UTF-8 may need. Held before the operation runs, so an answer
 * never outgrows `maxResponseBytes`.
 */
function entryBytes(op: BulkOperation, path: string, baseUrl: string): number {
  const text = (op.bulkId?.length ?? 0) + (op.version?.length ?? 0) + path.length + baseUrl.length;
  return BULK_ENTRY_BYTES + 3 * text;
}

// An entry's members and an error body (schemas, status, scimType, a detail of a few hundred
// characters), with room to spare.
const BULK_ENTRY_BYTES = 2048;

// The unique keys a POST's body would take on the endpoint its path names, tagged with the
// endpoint; none for a path no endpoint serves (that operation fails without a write).
function keysOfPost(
  path: string,
  data: unknown,
  endpoints: readonly ResourceEndpoint[],
): readonly string[] {
  const name = path.toLowerCase();
  const endpoint = endpoints.find((e) => e.type.endpoint.toLowerCase() === name);
  if (endpoint === undefined || !isJsonObject(data)) return [];
  return keysSentIn(data, endpoint.type).map((key) => `${endpoint.type.endpoint} ${key}`);
}

function errorOf(status: number, detail: string): ScimErrorBody {
  return new ScimError(status, detail, { scimType: 'invalidValue' }).toJSON();
}
