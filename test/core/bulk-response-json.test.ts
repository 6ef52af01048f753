import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bulkResponseJson,
  type BulkResponseOperation,
} from '../../src/core/bulk/bulk-response-json.js';
import { BULK_RESPONSE_SCHEMA } from '../../src/schema/urns.js';

const SCHEMA = BULK_RESPONSE_SCHEMA;

// Any string, lone surrogates, quotes, backslashes and control characters among them.
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('"', '\\', '\n', '\u0000', '\ud800', 'a"b\\c', '/Users/x y', 'W/"3"'),
);

const operation: fc.Arbitrary<BulkResponseOperation> = fc
  .record(
    {
      status: anyString,
      method: anyString,
      bulkId: anyString,
      location: anyString,
      version: anyString,
      response: fc.record({
        schemas: fc.array(anyString),
        status: anyString,
        detail: anyString,
      }),
    },
    { requiredKeys: ['status'] },
  )
  .map((op) => op as BulkResponseOperation);

describe('bulkResponseJson', () => {
  it('writes the same text as JSON.stringify of the plain BulkResponse', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 5 }), (operations) => {
        expect(bulkResponseJson(SCHEMA, operations)).toBe(
          JSON.stringify({ schemas: [SCHEMA], Operations: operations }),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('writes an empty list of operations', () => {
    expect(JSON.parse(bulkResponseJson(SCHEMA, []))).toEqual({ schemas: [SCHEMA], Operations: [] });
  });
});
