import { settledRecord } from '../../json/settled-json.js';
import type { AccountExtension, ScimUser } from '../../schema/user-resource.js';
import { ACCOUNT_SCHEMA } from '../../schema/urns.js';

/** The account after a change of `active`, and whether the welcome email is due. */
export interface AccountTransition {
  readonly account: AccountExtension;
  readonly invite: boolean;
}

/**
 * Computes the account status of a new user (docs/lifecycle.md, "Account status"): `Invited`
 * with the welcome email when created active, else `Pending`. The account is settled (see `settledRecord`).
 */
export function initialAccount(active: boolean, now: string): AccountTransition {
  return active
    ? { account: settledRecord({ status: 'Invited', invitedAt: now }), invite: true }
    : { account: settledRecord({ status: 'Pending' }), invite: false };
}

/**
 * Says whether a user is active: its `active`, or, when a client removed it (unassigned,
 * RFC 7644 §3.5.2.2), what its account status says: `Invited` and `Activated` are active.
 * An unassigned `active` thus never moves the status; the next value set is compared to this.
 */
export function isActiveUser(user: Pick<ScimUser, 'active' | typeof ACCOUNT_SCHEMA>): boolean {
  const status = user[ACCOUNT_SCHEMA].status;
  return user.active ?? (status === 'Invited' || status === 'Activated');
}

/**
 * Computes the account status after `active` changes (docs/lifecycle.md). Deactivation gives
 * `Deactivated`; reactivation gives `Activated` if the person has logged in before, else
 * `Invited`. The welcome email goes out only on the first move into `Invited`. An unassigned
 * `active` (`isActive` undefined) changes nothing. A new account is settled; an unchanged one
 * is `account` itself.
 */
export function accountAfterActiveChange(
  account: AccountExtension,
  wasActive: boolean,
  isActive: boolean | undefined,
  now: string,
): AccountTransition {
  if (isActive === undefined || wasActive === isActive) return { account, invite: false };
  if (!isActive) return moved(account, 'Deactivated');
  if (account.activatedAt !== undefined) return moved(account, 'Activated');
  if (account.invitedAt !== undefined) return moved(account, 'Invited');
  return {
    account: settledRecord({ ...account, status: 'Invited', invitedAt: now }),
    invite: true,
  };
}

/**
 * Computes the account after the person's first login (docs/lifecycle.md): `Activated` at
 * `now`, settled.
 */
export function activatedAccount(account: AccountExtension, now: string): AccountExtension {
  return settledRecord({ ...account, status: 'Activated', activatedAt: now });
}

function moved(account: AccountExtension, status: AccountExtension['status']): AccountTransition {
  return { account: settledRecord({ ...account, status }), invite: false };
}
