import { ScimError } from '../../errors/index.js';
import type { BulkOperation } from './bulk-request.js';
import { NONE, pathWithCreatedIds, referencedBulkIds, withCreatedIds } from './bulk-references.js';

/** How one operation ended, as the scheduler needs it. */
export interface OperationResult {
  readonly failed: boolean;
  /** The id a POST created, for the operations that refer to its bulkId. */
  readonly createdId?: string | undefined;
}

/** What {@link runBulk} asks of the handler that answers the bulk request. */
export interface BulkSteps {
  /**
   * Sets room aside for the answer of the operation about to run; `false` when there is none
   * left, and then neither it nor any operation after it runs.
   */
  admit(index: number, path: string): boolean;
  /** Runs one operation with its bulkId references replaced; never rejects. */
  dispatch(index: number, path: string, data: unknown): Promise<OperationResult>;
  /** Records an operation that fails before it runs. */
  refuse(index: number, error: ScimError): void;
  /**
   * The keys of what a POST would create that another resource may not share (its unique
   * attributes): two POSTs run at once only when their keys are disjoint.
   */
  keysOf(path: string, data: unknown): readonly string[];
}

/** One POST started and not yet waited for. */
interface Running {
  readonly index: number;
  readonly result: Promise<OperationResult>;
}

/**
 * Runs the operations of a bulk request in the order sent, except that an operation waits until
 * every operation whose bulkId it refers to has created its resource. An operation that refers
 * to a bulkId no POST carries, or one whose POST failed, fails with 409 `invalidValue`;
 * operations left waiting on each other (a circular reference, or one behind it) fail with 409
 * as well. Stops once `failOnErrors` operations have failed, or when `admit` finds no room for
 * an operation's answer: the rest are not run. Each operation is atomic; the request as a whole
 * is not.
 *
 * Consecutive POSTs that refer to no bulkId and share no unique key run together, up to
 * `concurrency` at once and never more than the failures `failOnErrors` still allows, so the
 * outcome is the one of running them in turn: no POST of a batch can see another's resource,
 * and a failure that reaches `failOnErrors` is the batch's last operation. Any other operation
 * waits for the POSTs before it and runs alone.
 *
 * @see RFC 7644 §3.7, §3.7.1, §3.7.3
 */
export async function runBulk(
  operations: readonly BulkOperation[],
  failOnErrors: number | undefined,
  concurrency: number,
  steps: BulkSteps,
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
    steps.refuse(index, error);
    failed(index);
  };
  const record = (index: number, result: OperationResult) => {
    const { bulkId } = operations[index] as BulkOperation;
    if (result.failed) failed(index);
    else if (bulkId !== undefined && result.createdId !== undefined)
      created.set(bulkId, result.createdId);
  };

  let batch: Running[] = [];
  const batchKeys = new Set<string>();
  // Waits for every POST of the batch, then counts their outcomes in the order sent.
  const settle = async () => {
    const outcomes = await Promise.allSettled(batch.map((r) => r.result));
    const done = batch;
    batch = [];
    batchKeys.clear();
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      record((done[i] as Running).index, outcome.value);
    });
  };

  let pending = operations.map((_, i) => i);
  while (pending.length > 0 && errors < limit) {
    const waiting: number[] = [];
    for (let at = 0; at < pending.length; at++) {
      const index = pending[at] as number;
      const op = operations[index] as BulkOperation;
      const refs = references[index] as ReadonlySet<string>;
      // A POST that refers to no bulkId may join the batch; anything else waits for it first.
      const joins = op.problem === undefined && op.method === 'POST' && refs.size === 0;
      const keys = joins ? steps.keysOf(op.path as string, op.data) : [];
      const room = Math.min(concurrency, limit - errors);
      if (!joins || batch.length >= room || keys.some((k) => batchKeys.has(k))) await settle();
      if (errors >= limit) {
        waiting.push(...pending.slice(at));
        break;
      }
      if (joins) {
        const path = op.path as string;
        if (!steps.admit(index, path)) {
          await settle();
          return;
        }
        for (const key of keys) batchKeys.add(key);
        batch.push({ index, result: steps.dispatch(index, path, op.data) });
        continue;
      }
      if (op.problem !== undefined) {
        fail(index, new ScimError(400, op.problem, { scimType: 'invalidSyntax' }));
        continue;
      }
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
      if (!steps.admit(index, path)) return;
      record(index, await steps.dispatch(index, path, data));
    }
    await settle();
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
