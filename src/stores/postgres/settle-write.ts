import { scimErrors } from '../../errors/index.js';

/** What a conditional write statement reports: rows changed, and the version it saw. */
export interface WriteOutcome {
  changed: number;
  /** The stored version in the statement's snapshot; `null` when there is no such user. */
  current: string | null;
}

/** Reads a conditional write's outcome: written, no such user, or a stale version. */
export function settleWrite(outcome: WriteOutcome | undefined): boolean {
  if (outcome && Number(outcome.changed) > 0) return true;
  if (!outcome || outcome.current === null) return false;
  throw scimErrors.versionConflict();
}
