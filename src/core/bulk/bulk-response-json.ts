import type { ScimErrorBody } from '../../errors/index.js';

/** One operation of a BulkResponse, its members in the order they are written. */
export interface BulkResponseOperation {
  status: string;
  method?: string;
  bulkId?: string;
  location?: string;
  version?: string;
  response?: ScimErrorBody;
}

// A string with nothing JSON escapes: written as it is, between quotes.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function text(value: string): string {
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}

/**
 * The BulkResponse's serialiser: the same text as
 * `JSON.stringify({ schemas: [schema], Operations: operations })` when each operation's members
 * were set in the order of {@link BulkResponseOperation} (as the bulk handler sets them), held
 * to it by test/core/bulk-response-json.test.ts. Written member by member, not by
 * `JSON.stringify`: what it buys is in bench/RESULTS.md (Bulk, session 8).
 */
export function bulkResponseJson(
  schema: string,
  operations: readonly BulkResponseOperation[],
): string {
  const parts: string[] = [];
  for (const op of operations) {
    let out = `{"status":${text(op.status)}`;
    if (op.method !== undefined) out += `,"method":${text(op.method)}`;
    if (op.bulkId !== undefined) out += `,"bulkId":${text(op.bulkId)}`;
    if (op.location !== undefined) out += `,"location":${text(op.location)}`;
    if (op.version !== undefined) out += `,"version":${text(op.version)}`;
    if (op.response !== undefined) out += `,"response":${JSON.stringify(op.response)}`;
    parts.push(`${out}}`);
  }
  return `{"schemas":[${text(schema)}],"Operations":[${parts.join(',')}]}`;
}
