import { settledRecord } from '../../json/settled-json.js';
import type { AccountExtension } from '../../schema/user-resource.js';

/** The account after a change of `active`, and whether the welcome email must be queued. */
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
 * Computes the account status after `active` changes (docs/lifecycle.md). Deactivation gives
 * `Deactivated`; reactivation gives `Activated` if the person has logged in before, else
 * `Invited`. The welcome email goes out only on the first move into `Invited`. A new account
 * is settled; an unchanged one is `account` itself.
 */
export function accountAfterActiveChange(
  account: AccountExtension,
  wasActive: boolean,
  isActive: boolean,
  now: string,
): AccountTransition {
  if (wasActive === isActive) return { account, invite: false };
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
