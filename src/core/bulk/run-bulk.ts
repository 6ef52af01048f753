import { ScimError } from '../../errors/index.js';
import type { BulkOperation } from './bulk-request.js';
import { NONE, pathWithCreatedIds, referencedBulkIds, withCreatedIds } from './bulk-references.js';

/** How one operation ended, as the scheduler needs it. */
export interface OperationResult {
  readonly failed: boolean;
  /** The id a POST created, for the operations that refer to its bulkId. */
  readonly createdId?: string | undefined;
  /** The operation was not run, and no operation after it is: the answer has no more room. */
  readonly stop?: boolean;
}

/** Runs one operation with its bulkId references replaced; never rejects. */
export type Dispatch = (index: number, path: string, data: unknown) => Promise<OperationResult>;

/** Records an operation that fails before it runs. */
export type Refuse = (index: number, error: ScimError) => void;

/**
 * Runs the operations of a bulk request one at a time, in the order sent, except that an
 * operation waits until every operation whose bulkId it refers to has created its resource. An
 * operation that refers to a bulkId no POST carries, or one whose POST failed, fails with 409
 * `invalidValue`; operations left waiting on each other (a circular reference, or one behind
 * it) fail with 409 as well. Stops once `failOnErrors` operations have failed, or when an
 * operation's dispatch says `stop` (the answer is full): the rest are not run. Each operation is atomic; the request as a whole is not.
 *
 * @see RFC 7644 §3.7, §3.7.1, §3.7.3
 */
export async function runBulk(
  operations: readonly BulkOperation[],
  failOnErrors: number | undefined,
  dispatch: Dispatch,
  refuse: Refuse,
): Promise<void> {
  const definedBy = new Map<string, number>();
  operations.forEach((op, i) => {
    if (op.bulkId !== undefined && op.method === 'POST') definedBy.set(op.bulkId, i);
  });
  const references = operations.map((op) =>
    op.problem === undefined ? referencedBulkIds(op.path ?? '', op.data) : NONE,
  );
  const created = new Map<string, string>();
  const failedIds = new Set<string>();
  let errors = 0;
  const limit = failOnErrors ?? Infinity;
  const failed = (index: number) => {
    errors++;
    const { bulkId } = operations[index] as BulkOperation;
    if (bulkId !== undefined) failedIds.add(bulkId);
  };
  const fail = (index: number, error: ScimError) => {
    refuse(index, error);
    failed(index);
  };

  let pending = operations.map((_, i) => i);
  while (pending.length > 0 && errors < limit) {
    const waiting: number[] = [];
    for (let at = 0; at < pending.length; at++) {
      const index = pending[at] as number;
      if (errors >= limit) {
        waiting.push(...pending.slice(at));
        break;
      }
      const op = operations[index] as BulkOperation;
      if (op.problem !== undefined) {
        fail(index, new ScimError(400, op.problem, { scimType: 'invalidSyntax' }));
        continue;
      }
      const refs = references[index] as ReadonlySet<string>;
      let path = op.path as string;
      let data = op.data;
      if (refs.size > 0) {
        const unknown = [...refs].find((id) => !definedBy.has(id));
        const lost = [...refs].find((id) => failedIds.has(id));
        if (unknown !== undefined || lost !== undefined) {
          const detail =
            unknown !== undefined
              ? `No POST operation of this request has the bulkId ${JSON.stringify(unknown)}.`
              : `The operation with bulkId ${JSON.stringify(lost)} failed, so it cannot be referenced.`;
          fail(index, new ScimError(409, detail, { scimType: 'invalidValue' }));
          continue;
        }
        if (![...refs].every((id) => created.has(id))) {
          waiting.push(index);
          continue;
        }
        path = pathWithCreatedIds(path, created);
        data = withCreatedIds(data, created);
      }
      const result = await dispatch(index, path, data);
      if (result.stop === true) return;
      if (result.failed) failed(index);
      else if (op.bulkId !== undefined && result.createdId !== undefined)
        created.set(op.bulkId, result.createdId);
    }
    if (waiting.length === pending.length && errors < limit) {
      // Nothing could run: what is left waits on itself through a circle of references.
      for (const index of waiting) {
        if (errors >= limit) break;
        fail(
          index,
          new ScimError(
            409,
            'This operation is part of, or waits on, a circular bulkId reference that cannot be resolved.',
            { scimType: 'invalidValue' },
          ),
        );
      }
      return;
    }
    pending = waiting;
  }
}
