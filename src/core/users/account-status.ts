import { shallowCopy } from '../../json/json-value.js';
import type { AccountExtension } from '../../schema/user-resource.js';

/** The account after a change of `active`, and whether the welcome email must be queued. */
export interface AccountTransition {
  readonly account: AccountExtension;
  readonly invite: boolean;
}

/**
 * Computes the account status of a new user (DESIGN.md §4): `Invited` with the welcome
 * email when created active, else `Pending`.
 */
export function initialAccount(active: boolean, now: string): AccountTransition {
  return active
    ? { account: { status: 'Invited', invitedAt: now }, invite: true }
    : { account: { status: 'Pending' }, invite: false };
}

/**
 * Computes the account status after `active` changes (DESIGN.md §4). Deactivation gives
 * `Deactivated`; reactivation gives `Activated` if the person has logged in before, else
 * `Invited`. The welcome email goes out only on the first move into `Invited`.
 */
export function accountAfterActiveChange(
  account: AccountExtension,
  wasActive: boolean,
  isActive: boolean,
  now: string,
): AccountTransition {
  if (wasActive === isActive) return { account, invite: false };
  const next = shallowCopy(account);
  if (!isActive) next.status = 'Deactivated';
  else if (account.activatedAt !== undefined) next.status = 'Activated';
  else if (account.invitedAt !== undefined) next.status = 'Invited';
  else {
    next.status = 'Invited';
    next.invitedAt = now;
    return { account: next, invite: true };
  }
  return { account: next, invite: false };
}
