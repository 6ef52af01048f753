import { describe, expect, it } from 'vitest';
import { assembleUser, firstMeta, nextMeta } from '../../src/core/users/stored-user.js';
import { accountAfterActiveChange, initialAccount } from '../../src/core/users/account-status.js';
import { defineAttribute } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { isSettled } from '../../src/json/settled-json.js';
import { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../src/schema/urns.js';
import { deepFreeze } from '../json/settled-helpers.js';

const NOW = '2026-11-24T05:00:00.000Z';
const LATER = '2026-11-24T06:00:00.000Z';
const ENTERPRISE = ENTERPRISE_USER_SCHEMA;
const BADGE = 'urn:example:params:scim:schemas:extension:badge:2.0:User';
// The User with the Enterprise extension, a host's badge extension and the account, in order.
const TYPE = userResourceType({
  extensions: [
    defineSchema({
      id: BADGE,
      name: 'Badge',
      description: 'A badge',
      attributes: [defineAttribute('number', 'string')],
    }),
  ],
});

describe('assembleUser', () => {
  it('lays out schemas, id, the attributes in order, the account, meta; frozen', () => {
    const { account } = initialAccount(true, NOW);
    const meta = firstMeta(NOW);
    const name = { givenName: 'Ada' };
    const user = assembleUser({
      id: 'u1',
      attributes: { name, userName: 'ada@example.org', active: true, title: 'Countess' },
      account,
      meta,
      type: TYPE,
    });
    expect(Object.keys(user)).toEqual([
      'schemas',
      'id',
      'name',
      'userName',
      'active',
      'title',
      ACCOUNT_SCHEMA,
      'meta',
    ]);
    expect(user).toMatchObject({ id: 'u1', schemas: [USER_SCHEMA, ACCOUNT_SCHEMA] });
    // Settled in the one pass: an open value is copied, frozen; a settled one is shared.
    expect(user.name).toEqual(name);
    expect(Object.isFrozen(user.name)).toBe(true);
    expect(isSettled(user)).toBe(true);
    expect(user[ACCOUNT_SCHEMA]).toBe(account);
    expect(user.meta).toBe(meta);
    expect(Object.isFrozen(user)).toBe(true);
    expect(Object.isFrozen(user.meta)).toBe(true);
    expect(Object.isFrozen(user[ACCOUNT_SCHEMA])).toBe(true);
    expect(Object.isFrozen(user.schemas)).toBe(true);
  });

  it('sets id, meta, schemas and the account itself, whatever the attributes say', () => {
    const stored = assembleUser({
      id: 'u1',
      attributes: { userName: 'ada@example.org' },
      account: initialAccount(false, NOW).account,
      meta: firstMeta(NOW),
      type: TYPE,
    });
    const forged = {
      ...stored,
      id: 'forged',
      schemas: ['urn:forged'],
      meta: { version: 'W/"99"' },
      [ACCOUNT_SCHEMA]: { status: 'Activated' },
    };
    const account = accountAfterActiveChange(stored[ACCOUNT_SCHEMA], false, false, LATER).account;
    const user = assembleUser({
      id: 'u1',
      attributes: forged,
      account,
      meta: nextMeta(stored.meta, LATER),
      type: TYPE,
      current: stored,
    });
    expect(user).toMatchObject({
      id: 'u1',
      schemas: stored.schemas,
      [ACCOUNT_SCHEMA]: { status: 'Pending' },
      meta: { version: 'W/"2"', lastModified: LATER, created: NOW },
    });
    expect(Object.keys(user)).toEqual(Object.keys(stored));
  });

  it('never changes the attributes it is given, frozen or not (a transform result)', () => {
    const attributes = { schemas: [USER_SCHEMA], id: 'u1', userName: 'ada@example.org', roles: [] };
    const snapshot = structuredClone(attributes);
    const parts = {
      id: 'u1',
      account: initialAccount(false, NOW).account,
      meta: firstMeta(NOW),
      type: TYPE,
    };
    const user = assembleUser({ ...parts, attributes });
    expect(attributes).toEqual(snapshot);
    expect(user).not.toBe(attributes);
    expect(() => assembleUser({ ...parts, attributes: deepFreeze(attributes) })).not.toThrow();
  });

  it('shares the values it takes from a settled version, and copies nothing over a host store version', () => {
    const first = assembleUser({
      id: 'u1',
      attributes: {
        userName: 'ada@example.org',
        name: { givenName: 'Ada' },
        emails: [{ value: 'a@b' }],
      },
      account: initialAccount(false, NOW).account,
      meta: firstMeta(NOW),
      type: TYPE,
    });
    const next = (current: ScimUser, title: object) =>
      assembleUser({
        id: 'u1',
        attributes: { ...current, title },
        account: current[ACCOUNT_SCHEMA],
        meta: nextMeta(current.meta, LATER),
        type: TYPE,
        current,
      }) as unknown as Record<string, unknown>;
    const title = { text: 'Countess' };
    const settled = next(first, title);
    expect(settled.name).toBe(first.name);
    expect(settled.emails).toBe(first.emails);
    expect(settled.title).not.toBe(title);
    expect(isSettled(settled)).toBe(true);
    // A host store's version (not settled): its values and the new ones are taken as they are.
    const hosts = structuredClone(first) as ScimUser;
    const open = next(hosts, title);
    expect(open.name).toBe(hosts.name);
    expect(open.title).toBe(title);
    expect(Object.isFrozen(open)).toBe(true);
    expect(isSettled(open)).toBe(false);
  });

  it('makes active a boolean, and keeps a "__proto__" member as data', () => {
    const attributes = JSON.parse('{"userName":"ada@example.org","__proto__":{"admin":true}}');
    const user = assembleUser({
      id: 'u1',
      attributes,
      account: initialAccount(false, NOW).account,
      meta: firstMeta(NOW),
      type: TYPE,
    }) as unknown as Record<string, unknown>;
    expect(user.active).toBe(false);
    expect(Object.getPrototypeOf(user)).toBe(Object.prototype);
    expect(user.admin).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(user, '__proto__')?.value).toEqual({ admin: true });
  });
});

describe('the schemas of an assembled user', () => {
  const parts = {
    id: 'u1',
    account: initialAccount(false, NOW).account,
    meta: firstMeta(NOW),
    type: TYPE,
  };
  const schemasOf = (attributes: Record<string, unknown>, previous?: readonly string[]) =>
    assembleUser({
      ...parts,
      attributes: { userName: 'a@example.org', ...attributes },
      ...(previous && { current: { schemas: previous } as unknown as ScimUser }),
    }).schemas;

  it('lists the core schema, the extensions present in their declared order, the account', () => {
    expect(schemasOf({ [BADGE]: {}, [ENTERPRISE]: {} })).toEqual([
      USER_SCHEMA,
      ENTERPRISE,
      BADGE,
      ACCOUNT_SCHEMA,
    ]);
    expect(schemasOf({ [BADGE]: {} })).toEqual([USER_SCHEMA, BADGE, ACCOUNT_SCHEMA]);
  });

  it('keeps the previous list when it says the same, and builds a new one when not', () => {
    const previous = schemasOf({ [BADGE]: {} });
    expect(schemasOf({ [BADGE]: { n: 1 } }, previous)).toBe(previous);
    expect(schemasOf({}, previous)).toEqual([USER_SCHEMA, ACCOUNT_SCHEMA]);
    expect(schemasOf({ [BADGE]: {} }, [USER_SCHEMA, ACCOUNT_SCHEMA])).toEqual(previous);
  });
});

describe('firstMeta and nextMeta', () => {
  it('start at version 1 and count up; lastModified moves unless no time is given', () => {
    const first = firstMeta(NOW);
    expect(first).toEqual({
      resourceType: 'User',
      created: NOW,
      lastModified: NOW,
      version: 'W/"1"',
    });
    expect(nextMeta(first, LATER)).toEqual({ ...first, lastModified: LATER, version: 'W/"2"' });
    expect(nextMeta(first, undefined)).toEqual({ ...first, version: 'W/"2"' });
    expect(first.version).toBe('W/"1"');
  });
});
