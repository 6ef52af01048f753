import { describe, expect, it } from 'vitest';
import type { ScimEvent } from '../../src/index.js';
import {
  accountAfterActiveChange,
  activatedAccount,
  initialAccount,
  isActiveUser,
} from '../../src/core/users/account-status.js';
import { assembleUser, firstMeta, nextMeta } from '../../src/core/users/stored-user.js';
import { changedUserAttributes, userEvents } from '../../src/core/users/user-events.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { ACCOUNT, patchBody, setup } from './harness.js';
import { ACCOUNT_SCHEMA } from '../../src/schema/urns.js';

const NOW = '2026-11-24T05:00:00.000Z';
const TYPE = userResourceType();

function created(active: boolean): ScimUser {
  const attributes = { userName: 'ada@example.org', active };
  const { account } = initialAccount(active, NOW);
  return assembleUser({ id: 'u1', attributes, account, meta: firstMeta(NOW), type: TYPE });
}

// The next version of `user` with `change`, as the service's update would store it.
function changed(user: ScimUser, change: Record<string, unknown>): ScimUser {
  const attributes = { ...user, ...change };
  const { account } = accountAfterActiveChange(
    user[ACCOUNT_SCHEMA],
    isActiveUser(user),
    attributes.active === true,
    NOW,
  );
  return assembleUser({
    id: user.id,
    attributes,
    account,
    meta: nextMeta(user.meta, NOW),
    type: TYPE,
  });
}

const types = (events: ScimEvent[]) => events.map((e) => e.type);

// The events of a write from `before` to `after`, with what changed listed as the User's kind
// lists it when it plans the write.
function eventsOf(before: ScimUser | null, after: ScimUser | null): ScimEvent[] {
  const changed = before && after ? changedUserAttributes(before, after) : [];
  return userEvents('t', NOW, 'u1', before, after, changed);
}

describe('userEvents', () => {
  it('a creation and a deletion', () => {
    const user = created(false);
    expect(eventsOf(null, user)).toEqual([{ type: 'user.created', tenant: 't', at: NOW, user }]);
    expect(eventsOf(user, null)).toEqual([
      { type: 'user.deleted', tenant: 't', at: NOW, id: 'u1' },
    ]);
  });

  it('user.updated with the names of the attributes changed', () => {
    const before = created(true);
    const after = changed(before, { title: 'Boss', displayName: 'Ada' });
    expect(eventsOf(before, after)).toEqual([
      {
        type: 'user.updated',
        tenant: 't',
        at: NOW,
        before,
        after,
        changed: ['title', 'displayName'],
      },
    ]);
  });

  it('user.updated names attributes removed and added, in order, and no equal value', () => {
    const before = changed(created(true), { title: 'Boss', name: { givenName: 'Ada' } });
    const { title: _removed, ...kept } = before;
    // `name` is a new object with the same value: not a change.
    const after = assembleUser({
      id: before.id,
      attributes: { ...kept, name: { givenName: 'Ada' }, nickName: 'A' },
      account: before[ACCOUNT_SCHEMA],
      meta: nextMeta(before.meta, NOW),
      type: TYPE,
    });
    const [event] = eventsOf(before, after);
    expect(event).toMatchObject({ type: 'user.updated', changed: ['title', 'nickName'] });
  });

  it('deactivation, and reactivation of an account that was active before', () => {
    const invited = created(true);
    const off = changed(invited, { active: false });
    const on = changed(off, { active: true });
    expect(types(eventsOf(invited, off))).toEqual(['user.updated', 'user.deactivated']);
    expect(types(eventsOf(off, on))).toEqual(['user.updated', 'user.reactivated']);
  });

  it('a Pending user made active for the first time (→ Invited) is updated, not reactivated', () => {
    const pending = created(false);
    const invited = changed(pending, { active: true });
    expect(invited[ACCOUNT_SCHEMA].status).toBe('Invited');
    expect(types(eventsOf(pending, invited))).toEqual(['user.updated']);
  });

  it('first login is user.activated alone; a write no client sees has no event', () => {
    const invited = created(true);
    const activated = assembleUser({
      id: 'u1',
      attributes: invited,
      account: activatedAccount(invited[ACCOUNT_SCHEMA], NOW),
      meta: nextMeta(invited.meta, NOW),
      type: TYPE,
    });
    expect(types(eventsOf(invited, activated))).toEqual(['user.activated']);
    const resent = assembleUser({
      id: 'u1',
      attributes: invited,
      account: invited[ACCOUNT_SCHEMA],
      meta: nextMeta(invited.meta, undefined),
      type: TYPE,
    });
    expect(eventsOf(invited, resent)).toEqual([]);
  });
});

describe('lifecycle events over SCIM', () => {
  it('Pending → Invited emits user.updated (and user.invited), not user.reactivated; a later reactivation does; a resend emits user.invited only', async () => {
    const { scim, createUser, request } = setup();
    const events: ScimEvent[] = [];
    scim.on((e) => events.push(e));
    const user = await createUser('ada@example.org');
    const active = (value: boolean) =>
      request('PATCH', `/Users/${user.id}`, {
        body: patchBody({ op: 'replace', path: 'active', value }),
      });
    expect((await active(true)).body[ACCOUNT].status).toBe('Invited');
    await active(false);
    await active(true);
    expect(await scim.users.resendInvitation('tenant-a', user.id)).toBe(true);
    expect(types(events)).toEqual([
      'user.created',
      'user.updated',
      'user.invited',
      'user.updated',
      'user.deactivated',
      'user.updated',
      'user.reactivated',
      'user.invited',
    ]);
  });
});
