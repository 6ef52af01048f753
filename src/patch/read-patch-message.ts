import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { RuleTrace } from '../schema/dialect-rules.js';
import { PATCH_OP_SCHEMA } from '../schema/urns.js';
import type { PatchContext } from './types.js';

type Json = Record<string, unknown>;

const PATCH_OP_SCHEMA_LOWER = PATCH_OP_SCHEMA.toLowerCase();

/** Reads a member of a message object, matching its name regardless of case (RFC 7643 §2.1). */
export function member(o: Json, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

const OP_NAMES: ReadonlySet<unknown> = new Set(['add', 'remove', 'replace']);

/**
 * Reads an operation's `op` as sent in `rawOp`: in any letter case with the dialect rule
 * `opAnyCase`, which is reported to `trace` when it turned the name into one of RFC 7644's.
 */
export function opName(
  rawOp: unknown,
  ctx: Pick<PatchContext, 'rules'>,
  trace: RuleTrace | undefined,
): unknown {
  if (typeof rawOp !== 'string' || !ctx.rules.opAnyCase) return rawOp;
  const op = rawOp.toLowerCase();
  if (trace && op !== rawOp && OP_NAMES.has(op))
    trace({ rule: 'opAnyCase', where: '.op', received: rawOp, became: op });
  return op;
}

/** Tells whether a message object has a member, matching its name regardless of case. */
export function hasMember(o: Json, name: string): boolean {
  if (name in o) return true;
  return Object.keys(o).some((k) => k.toLowerCase() === name);
}

/**
 * Checks a PatchOp message and returns its operations. An empty `Operations` array is refused
 * (RFC 7644 §3.5.2: "one or more") unless `allowEmpty` (dialect rule `emptyOperations`).
 *
 * @throws ScimError 400 `invalidSyntax` for a message that is not a PatchOp, `tooMany` beyond
 *   `max` operations.
 * @see RFC 7644 §3.5.2
 */
export function readMessage(body: unknown, max: number, allowEmpty = false): unknown[] {
  if (!isJsonObject(body))
    throw scimErrors.invalidSyntax('The PATCH body must be a PatchOp message object.');
  const schemas = member(body, 'schemas');
  if (
    !Array.isArray(schemas) ||
    !schemas.some(
      (s) =>
        s === PATCH_OP_SCHEMA ||
        (typeof s === 'string' && s.toLowerCase() === PATCH_OP_SCHEMA_LOWER),
    )
  ) {
    throw scimErrors.invalidSyntax(`"schemas" must contain "${PATCH_OP_SCHEMA}".`);
  }
  const operations = member(body, 'Operations');
  if (!Array.isArray(operations) || (operations.length === 0 && !allowEmpty)) {
    throw scimErrors.invalidSyntax('"Operations" must be an array of one or more operations.');
  }
  if (operations.length > max) {
    throw scimErrors.tooMany(
      `A PATCH may carry at most ${max} operations; this one has ${operations.length}.`,
    );
  }
  return operations;
}
