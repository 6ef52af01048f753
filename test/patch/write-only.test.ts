import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { defineAttribute as attr } from '../../src/schema/define-attribute.js';
import type { SchemaDefinition } from '../../src/schema/types.js';
import {
  failure,
  message,
  patch,
  resourceTypeOf,
  SCHEMAS,
  storedUser,
  USER_SCHEMA,
} from './fixtures.js';

const VAULT = 'urn:example:params:scim:schemas:extension:vault:1.0:User';
const vault: SchemaDefinition = {
  id: VAULT,
  name: 'Vault',
  description: 'An extension with writeOnly attributes',
  attributes: [
    attr('pin', 'integer', { mutability: 'writeOnly', returned: 'never' }),
    attr('login', 'complex', {
      subAttributes: [
        attr('user', 'string'),
        attr('secret', 'string', { mutability: 'writeOnly', returned: 'never' }),
      ],
    }),
  ],
};
const options = { resourceType: resourceTypeOf([...SCHEMAS, vault]) };

describe('writeOnly values', () => {
  it('come back by their canonical path, never in the resource, however the client named them', () => {
    for (const operation of [
      { op: 'replace', path: 'PASSWORD', value: 'pw' },
      { op: 'add', path: `${USER_SCHEMA}:password`, value: 'pw' },
      { op: 'replace', value: { Password: 'pw' } },
      { op: 'replace', value: { [`${USER_SCHEMA}:PassWord`]: 'pw' } },
      { op: 'replace', value: { [USER_SCHEMA]: { password: 'pw' } } },
    ]) {
      const result = patch(storedUser(), operation);
      expect(result.writeOnly).toEqual({ password: 'pw' });
      expect(result.changed).toBe(false);
      expect(result.resource).toEqual(storedUser());
    }
  });

  it('are empty when no operation sets one, and after a remove', () => {
    expect(
      patch(storedUser(), { op: 'replace', path: 'displayName', value: 'A' }).writeOnly,
    ).toEqual({});
    expect(patch(storedUser(), { op: 'remove', path: 'password' }).writeOnly).toEqual({});
    // Operations apply in order: a later remove leaves nothing to hand over.
    const cancelled = patch(
      storedUser(),
      { op: 'replace', path: 'password', value: 'pw' },
      { op: 'remove', path: 'password' },
    );
    expect(cancelled.writeOnly).toEqual({});
  });

  it('of an extension and of a sub-attribute are coerced to their type and kept apart', () => {
    const result = applyPatch(
      storedUser(),
      message(
        { op: 'add', path: `${VAULT}:pin`, value: 1234 },
        { op: 'add', path: `${VAULT}:login`, value: { user: 'ada' } },
        { op: 'replace', path: `${VAULT}:login.secret`, value: 's3' },
        { op: 'replace', value: { [`${VAULT}:pin`]: 4321 } },
      ),
      options,
    );
    expect(result.writeOnly).toEqual({ [`${VAULT}:pin`]: 4321, [`${VAULT}:login.secret`]: 's3' });
    expect(result.resource[VAULT]).toEqual({ login: { user: 'ada' } });
    const wrong = failure(() =>
      applyPatch(storedUser(), message({ op: 'add', path: `${VAULT}:pin`, value: 'x' }), options),
    );
    expect(wrong.scimType).toBe('invalidValue');
  });

  it('refuse a value that is not of their type, or no value at all', () => {
    expect(
      failure(() => patch(storedUser(), { op: 'add', path: 'password', value: 1 })).scimType,
    ).toBe('invalidValue');
    expect(failure(() => patch(storedUser(), { op: 'add', path: 'password' })).scimType).toBe(
      'invalidValue',
    );
  });
});
