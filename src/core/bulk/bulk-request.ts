import { ScimError, scimErrors } from '../../errors/index.js';
import { BULK_REQUEST_SCHEMA } from '../../schema/urns.js';

/** The methods a bulk operation may use. */
export type BulkMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One operation of a bulk request as sent; `problem` says why it cannot run (a wrong method, no
 * path), so that it alone fails and the others still run.
 */
export interface BulkOperation {
  /** The method as sent, in upper case (`post` is POST), or `undefined` when not a string. */
  readonly method: string | undefined;
  readonly bulkId: string | undefined;
  readonly version: string | undefined;
  readonly path: string | undefined;
  readonly data: unknown;
  readonly problem: string | undefined;
}

/** A bulk request read from its body. */
export interface BulkRequest {
  readonly operations: readonly BulkOperation[];
  /** Errors after which the rest is not run; `undefined` runs every operation. */
  readonly failOnErrors: number | undefined;
}

const METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function optionalText(op: Record<string, unknown>, name: string): string | undefined {
  const value = op[name];
  return typeof value === 'string' ? value : undefined;
}

function readOperation(value: unknown): BulkOperation {
  if (!isObject(value)) {
    const problem = 'An operation must be an object.';
    return {
      method: undefined,
      bulkId: undefined,
      version: undefined,
      path: undefined,
      data: undefined,
      problem,
    };
  }
  const upper = optionalText(value, 'method')?.toUpperCase();
  const path = optionalText(value, 'path');
  let problem: string | undefined;
  if (upper === undefined || !METHODS.has(upper))
    problem = '"method" must be POST, PUT, PATCH or DELETE.';
  else if (path === undefined) problem = '"path" is required and must be a string.';
  else if (value.bulkId !== undefined && typeof value.bulkId !== 'string')
    problem = '"bulkId" must be a string.';
  else if (value.version !== undefined && typeof value.version !== 'string')
    problem = '"version" must be a string.';
  else if (upper !== 'DELETE' && !isObject(value.data))
    problem = `"data" is required for ${upper} and must be an object.`;
  return {
    method: upper,
    bulkId: optionalText(value, 'bulkId'),
    version: optionalText(value, 'version'),
    path,
    data: value.data,
    problem,
  };
}

/**
 * Reads a BulkRequest message. What is wrong with the message as a whole (not an object, no
 * `Operations` array, a bad `failOnErrors`, a `bulkId` given twice, too many operations) fails
 * the request; what is wrong with one operation fails that operation only.
 *
 * @throws ScimError 400 `invalidSyntax` / `invalidValue`; 413 for more than `maxOperations`.
 * @see RFC 7644 §3.7
 */
export function readBulkRequest(body: unknown, maxOperations: number): BulkRequest {
  if (!isObject(body)) throw scimErrors.invalidSyntax('A BulkRequest must be a JSON object.');
  const { schemas, Operations: operations, failOnErrors } = body;
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(BULK_REQUEST_SCHEMA)))
    throw scimErrors.invalidSyntax(`"schemas" must hold "${BULK_REQUEST_SCHEMA}".`);
  if (!Array.isArray(operations))
    throw scimErrors.invalidSyntax('A BulkRequest needs an "Operations" array.');
  if (operations.length > maxOperations) {
    throw new ScimError(
      413,
      `The number of operations exceeds the maxOperations (${maxOperations}).`,
    );
  }
  if (
    failOnErrors !== undefined &&
    !(typeof failOnErrors === 'number' && Number.isInteger(failOnErrors) && failOnErrors >= 1)
  )
    throw scimErrors.invalidValue('"failOnErrors" must be a whole number of at least 1.');
  const read = operations.map(readOperation);
  const seen = new Set<string>();
  for (const op of read) {
    if (op.bulkId === undefined) continue;
    if (seen.has(op.bulkId))
      throw scimErrors.invalidValue(`The bulkId ${JSON.stringify(op.bulkId)} is used twice.`);
    seen.add(op.bulkId);
  }
  return { operations: read, failOnErrors };
}
