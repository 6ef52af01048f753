import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import {
  ACCOUNT_SCHEMA,
  failure,
  message,
  OPTIONS,
  patch,
  PATCH_OP_SCHEMA,
  storedUser,
  resourceTypeOf,
} from './fixtures.js';

const run = (body: unknown) => failure(() => applyPatch(storedUser(), body, OPTIONS));

describe('bad requests get a precise error and change nothing', () => {
  it.each([
    ['a body that is not an object', [], 'invalidSyntax'],
    ['no schemas', { Operations: [{ op: 'add', path: 'title', value: 'x' }] }, 'invalidSyntax'],
    [
      'the wrong schema',
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        Operations: [{ op: 'add', path: 'title', value: 'x' }],
      },
      'invalidSyntax',
    ],
    ['no Operations', { schemas: [PATCH_OP_SCHEMA] }, 'invalidSyntax'],
    // An empty Operations array is a no-op under the dialect rule `emptyOperations`, and
    // invalidSyntax without it: see dialect-rules.test.ts.
    [
      'Operations not an array',
      { schemas: [PATCH_OP_SCHEMA], Operations: { op: 'add' } },
      'invalidSyntax',
    ],
    ['an operation that is not an object', message('add'), 'invalidSyntax'],
    ['an unknown op', message({ op: 'move', path: 'title', value: 'x' }), 'invalidSyntax'],
    ['a missing op', message({ path: 'title', value: 'x' }), 'invalidSyntax'],
    ['a path that is not a string', message({ op: 'add', path: 7, value: 'x' }), 'invalidPath'],
    [
      'a path that does not parse',
      message({ op: 'add', path: 'emails[type eq', value: 'x' }),
      'invalidPath',
    ],
    [
      'a path with trailing text',
      message({ op: 'add', path: 'name.givenName.x', value: 'x' }),
      'invalidPath',
    ],
    [
      'an unknown attribute',
      message({ op: 'replace', path: 'favouriteColour', value: 'x' }),
      'invalidPath',
    ],
    [
      'an unknown sub-attribute',
      message({ op: 'replace', path: 'name.nick', value: 'x' }),
      'invalidPath',
    ],
    [
      'an unknown schema URN',
      message({ op: 'replace', path: 'urn:example:nope:attr', value: 'x' }),
      'invalidPath',
    ],
    [
      'a filter on a singular attribute',
      message({ op: 'replace', path: 'name[givenName eq "x"]', value: {} }),
      'invalidPath',
    ],
    [
      'a filter naming an unknown sub-attribute',
      message({ op: 'replace', path: 'emails[colour eq "red"]', value: {} }),
      'invalidPath',
    ],
    ['a wrong type', message({ op: 'replace', path: 'active', value: 'yes' }), 'invalidValue'],
    [
      'a string where an object belongs',
      message({ op: 'replace', path: 'name', value: 'Ada' }),
      'invalidValue',
    ],
    [
      'a readOnly account attribute (invitedAt)',
      message({ op: 'add', path: `${ACCOUNT_SCHEMA}:invitedAt`, value: '2026-01-01T00:00:00Z' }),
      'mutability',
    ],
    ['add without a value', message({ op: 'add', path: 'title' }), 'invalidValue'],
    [
      'a path-less add whose value is not an object',
      message({ op: 'add', value: 'x' }),
      'invalidValue',
    ],
    ['remove without a path', message({ op: 'remove' }), 'noTarget'],
    [
      'a readOnly attribute (id)',
      message({ op: 'replace', path: 'id', value: 'other' }),
      'mutability',
    ],
    [
      'a readOnly attribute (meta)',
      message({ op: 'replace', path: 'meta.version', value: 'W/"9"' }),
      'mutability',
    ],
    [
      'a readOnly attribute (groups)',
      message({ op: 'add', path: 'groups', value: [{ value: 'g' }] }),
      'mutability',
    ],
    [
      'the account status',
      message({ op: 'replace', path: `${ACCOUNT_SCHEMA}:status`, value: 'Activated' }),
      'mutability',
    ],
    [
      'the account extension as a whole',
      message({ op: 'remove', path: ACCOUNT_SCHEMA }),
      'mutability',
    ],
    [
      'a path-less change of a readOnly attribute',
      message({ op: 'replace', value: { id: 'other' } }),
      'mutability',
    ],
    ['removing the required userName', message({ op: 'remove', path: 'userName' }), 'mutability'],
    [
      'replacing userName with null',
      message({ op: 'replace', value: { userName: null } }),
      'mutability',
    ],
  ])('%s', (_name, body, scimType) => {
    const error = run(body);
    expect(error.status).toBe(400);
    expect(error.scimType).toBe(scimType);
    expect(error.detail.length).toBeGreaterThan(10);
  });

  it('refuses more operations than the limit with tooMany', () => {
    const ops = Array.from({ length: 3 }, () => ({ op: 'replace', path: 'active', value: false }));
    const error = failure(() =>
      applyPatch(storedUser(), message(...ops), { ...OPTIONS, maxOperations: 2 }),
    );
    expect(error.scimType).toBe('tooMany');
    const thousand = Array.from({ length: 1000 }, () => ({
      op: 'replace',
      path: 'active',
      value: false,
    }));
    expect(applyPatch(storedUser(), message(...thousand), OPTIONS).resource.active).toBe(false);
    expect(
      failure(() => applyPatch(storedUser(), message(...thousand, thousand[0]), OPTIONS)).scimType,
    ).toBe('tooMany');
  });

  it('accepts a path-less value that restates readOnly attributes unchanged (IdPs echo id)', () => {
    const user = storedUser();
    const { resource } = patch(user, {
      op: 'replace',
      value: { id: user.id, schemas: ['x'], active: false },
    });
    expect(resource.active).toBe(false);
    expect(resource.id).toBe(user.id);
  });

  it('ignores path-less keys that name nothing we model', () => {
    const result = patch(storedUser(), {
      op: 'add',
      value: { favouriteColour: 'red', 'urn:example:ext:1.0:User:x': 1 },
    });
    expect(result.changed).toBe(false);
  });

  it('sets an immutable attribute only while it has no value', () => {
    const schemas = [
      {
        ...OPTIONS.resourceType.core,
        attributes: OPTIONS.resourceType.core.attributes.map((a) =>
          a.name === 'externalId' ? { ...a, mutability: 'immutable' as const } : a,
        ),
      },
    ];
    const options = { resourceType: resourceTypeOf(schemas) };
    const { externalId: _drop, ...bare } = storedUser();
    expect(
      applyPatch(bare, message({ op: 'add', path: 'externalId', value: 'e' }), options).resource
        .externalId,
    ).toBe('e');
    expect(
      applyPatch(
        storedUser(),
        message({ op: 'replace', path: 'externalId', value: 'ext-1' }),
        options,
      ).changed,
    ).toBe(false);
    const error = failure(() =>
      applyPatch(
        storedUser(),
        message({ op: 'replace', path: 'externalId', value: 'other' }),
        options,
      ),
    );
    expect(error.scimType).toBe('mutability');
  });

  it('never stores a writeOnly password', () => {
    const result = patch(
      storedUser(),
      { op: 'replace', path: 'password', value: 'hunter2' },
      { op: 'replace', value: { password: 'x' } },
    );
    expect(result.resource).not.toHaveProperty('password');
    expect(result.changed).toBe(false);
  });

  it('treats a remove whose filter matches nothing as a no-op', () => {
    expect(patch(storedUser(), { op: 'remove', path: 'roles[value eq "nobody"]' }).changed).toBe(
      false,
    );
  });
});
