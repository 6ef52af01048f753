import { describe, expect, it } from 'vitest';
import type { DialectRuleName } from '../../src/index.js';
import { applyPatch } from '../../src/patch/index.js';
import {
  ACCOUNT_SCHEMA,
  ENTERPRISE_USER_SCHEMA,
  failure,
  message,
  patch,
  SCHEMAS,
  storedUser,
  resourceTypeOf,
  USER_SCHEMA,
} from './fixtures.js';

/** Applies a recorded IdP request with one dialect rule switched off. */
function without(
  rule: DialectRuleName,
  resource: Record<string, unknown>,
  ...operations: unknown[]
) {
  return applyPatch(resource, message(...operations), {
    resourceType: resourceTypeOf(SCHEMAS, { [rule]: false }),
  });
}

// Each case is the request body an identity provider really sends (see docs/patch.md for the
// sources), first accepted with the rule on, then refused or ignored with the rule off.
describe('dialect rules', () => {
  it('opAnyCase: Entra ID sends "Replace" / "Add" / "Remove"', () => {
    const op = { op: 'Replace', path: 'active', value: false };
    expect(patch(storedUser(), op).resource.active).toBe(false);
    expect(patch(storedUser(), { op: 'ADD', path: 'title', value: 'x' }).resource.title).toBe('x');
    expect(failure(() => without('opAnyCase', storedUser(), op)).scimType).toBe('invalidSyntax');
  });

  it('stringBooleans: Entra ID deactivates with {"op":"Replace","path":"active","value":"False"}', () => {
    const op = { op: 'Replace', path: 'active', value: 'False' };
    expect(patch(storedUser(), op).resource.active).toBe(false);
    expect(
      patch({ ...storedUser(), active: false }, { ...op, value: 'true' }).resource.active,
    ).toBe(true);
    expect(failure(() => without('stringBooleans', storedUser(), op)).scimType).toBe(
      'invalidValue',
    );
  });

  it('stringBooleans: in sub-attributes and in value filters (roles[primary eq "True"].value)', () => {
    const user = { ...storedUser(), roles: [{ value: 'reader', primary: true }] };
    const { resource } = patch(user, {
      op: 'Replace',
      path: 'roles[primary eq "True"].value',
      value: 'Admin',
    });
    expect(resource.roles).toEqual([{ value: 'Admin', primary: true }]);
    const added = patch(storedUser(), {
      op: 'add',
      path: 'emails',
      value: [{ value: 'x@y.z', primary: 'True' }],
    }).resource;
    expect((added.emails as unknown[]).at(-1)).toEqual({ value: 'x@y.z', primary: true });
  });

  it('dottedKeys: Entra ID sends path-less values with "name.givenName" keys', () => {
    const op = {
      op: 'replace',
      value: { 'name.givenName': 'Josie', 'name.familyName': 'Russell', active: false },
    };
    const { resource } = patch(storedUser(), op);
    expect(resource.name).toEqual({ givenName: 'Josie', familyName: 'Russell' });
    const off = without('dottedKeys', storedUser(), op).resource;
    expect(off.name).toEqual(storedUser().name);
    expect(Object.keys(off)).not.toContain('name.givenName');
    expect(off.active).toBe(false);
  });

  it('urnKeys: Entra ID sends path-less values keyed by URN-qualified attributes', () => {
    const op = {
      op: 'Add',
      value: {
        [`${ENTERPRISE_USER_SCHEMA}:department`]: 'Sales',
        [`${ENTERPRISE_USER_SCHEMA}:manager.value`]: 'm-1',
      },
    };
    const { resource } = patch(storedUser(), op);
    expect(resource[ENTERPRISE_USER_SCHEMA]).toEqual({
      department: 'Sales',
      manager: { value: 'm-1' },
    });
    expect(resource.schemas).toContain(ENTERPRISE_USER_SCHEMA);
    expect(without('urnKeys', storedUser(), op).changed).toBe(false);
  });

  it('removeWithValue: Entra ID removes one member with {"op":"Remove","path":"roles","value":[{"value":…}]}', () => {
    const user = {
      ...storedUser(),
      roles: [{ value: 'reader' }, { value: 'writer', type: 'app' }],
    };
    const op = { op: 'Remove', path: 'roles', value: [{ $ref: null, value: 'writer' }] };
    expect(patch(user, op).resource.roles).toEqual([{ value: 'reader' }]);
    expect(failure(() => without('removeWithValue', user, op)).scimType).toBe('invalidSyntax');
  });

  it('filterMissCreates: Entra ID sets phoneNumbers[type eq "work"].value on a user with none', () => {
    const op = { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+1 555 0100' };
    expect(patch(storedUser(), op).resource.phoneNumbers).toEqual([
      { type: 'work', value: '+1 555 0100' },
    ]);
    const replace = {
      op: 'Replace',
      path: 'emails[type eq "other" and primary eq false].value',
      value: 'o@x.org',
    };
    expect((patch(storedUser(), replace).resource.emails as unknown[]).at(-1)).toEqual({
      type: 'other',
      primary: false,
      value: 'o@x.org',
    });
    expect(failure(() => without('filterMissCreates', storedUser(), op)).scimType).toBe('noTarget');
  });

  it('managerString: Entra ID sends the manager as a bare id', () => {
    const op = {
      op: 'Add',
      path: `${ENTERPRISE_USER_SCHEMA}:manager`,
      value: '2c2f6fb8-254f-492e-b7fe-c09c5a61c8a2',
    };
    expect(patch(storedUser(), op).resource[ENTERPRISE_USER_SCHEMA]).toEqual({
      manager: { value: '2c2f6fb8-254f-492e-b7fe-c09c5a61c8a2' },
    });
    expect(failure(() => without('managerString', storedUser(), op)).scimType).toBe('invalidValue');
  });

  it('jsonEncodedValues: Entra ID AppRoleAssignmentsComplex sends roles as JSON strings', () => {
    const op = {
      op: 'Add',
      path: 'roles',
      value: [
        {
          value:
            '{"id":"827f0d2e-be15-4d8f-a8e3-f8697239c112","value":"DocumentMgmt-Admin","displayName":"DocumentMgmt Admin"}',
        },
      ],
    };
    expect(patch(storedUser(), op).resource.roles).toEqual([
      { value: 'reader' },
      { value: 'DocumentMgmt-Admin', display: 'DocumentMgmt Admin' },
    ]);
    const raw = (
      without('jsonEncodedValues', storedUser(), op).resource.roles as { value: string }[]
    ).at(-1);
    expect(raw?.value).toMatch(/^\{/);
  });

  it('nullClears: explicit null means no value', () => {
    const { resource } = patch(
      storedUser(),
      { op: 'replace', path: 'displayName', value: null },
      { op: 'replace', value: { name: { familyName: null } } },
    );
    expect(resource).not.toHaveProperty('displayName');
    expect(resource.name).toEqual({ givenName: 'Ada' });
    const error = failure(() =>
      without('nullClears', storedUser(), { op: 'replace', path: 'displayName', value: null }),
    );
    expect(error.scimType).toBe('invalidValue');
  });

  describe('the last Microsoft shapes (issue 14 item 6)', () => {
    const BOSS = '26118915-6090-4610-87e4-49d8ca9f808d';
    function managed(extra: Record<string, unknown> = {}) {
      const user = storedUser();
      return {
        ...user,
        schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, ACCOUNT_SCHEMA],
        [ENTERPRISE_USER_SCHEMA]: { ...extra, manager: { value: BOSS } },
      };
    }

    it('managerValueFilter: Entra ID removes the manager with an unqualified manager[value eq "<id>"]', () => {
      const op = { op: 'remove', path: `manager[value eq "${BOSS}"]` };
      const { resource, changed } = patch(managed({ department: 'Maths' }), op);
      expect(changed).toBe(true);
      expect(resource[ENTERPRISE_USER_SCHEMA]).toEqual({ department: 'Maths' });
      // Only manager left: the extension goes, and its URN leaves schemas.
      const alone = patch(managed(), { ...op, op: 'Remove' }).resource;
      expect(alone).not.toHaveProperty(ENTERPRISE_USER_SCHEMA);
      expect(alone.schemas).not.toContain(ENTERPRISE_USER_SCHEMA);
      // Another manager's id matches nothing: success without a change, as a filtered remove
      // on a multi-valued attribute (RFC 7644 §3.5.2.2).
      const other = patch(managed(), { op: 'remove', path: 'manager[value eq "someone-else"]' });
      expect(other.changed).toBe(false);
      expect(patch(storedUser(), op).changed).toBe(false);
      expect(failure(() => without('managerValueFilter', managed(), op)).scimType).toBe(
        'invalidPath',
      );
    });

    it('managerValueFilter: only remove takes it; a filter naming no sub-attribute is invalidPath', () => {
      for (const op of ['add', 'replace']) {
        const error = failure(() =>
          patch(managed(), { op, path: `manager[value eq "${BOSS}"]`, value: 'x' }),
        );
        expect(error.scimType).toBe('invalidPath');
      }
      expect(
        failure(() => patch(managed(), { op: 'remove', path: 'manager[nope eq "x"]' })).scimType,
      ).toBe('invalidPath');
      expect(
        failure(() => patch(managed(), { op: 'remove', path: 'department[value eq "x"]' }))
          .scimType,
      ).toBe('invalidPath');
    });

    it('managerEmptyString: Entra gallery validation replaces the manager with "" to remove it', () => {
      const op = { op: 'Replace', path: `${ENTERPRISE_USER_SCHEMA}:manager`, value: '' };
      const alone = patch(managed(), op).resource;
      expect(alone).not.toHaveProperty(ENTERPRISE_USER_SCHEMA);
      expect(alone.schemas).not.toContain(ENTERPRISE_USER_SCHEMA);
      const kept = patch(managed({ department: 'Music' }), op).resource;
      expect(kept[ENTERPRISE_USER_SCHEMA]).toEqual({ department: 'Music' });
      expect(kept.schemas).toContain(ENTERPRISE_USER_SCHEMA);
      // The same through a path-less value keyed by the URN.
      const pathLess = patch(managed(), {
        op: 'replace',
        value: { [ENTERPRISE_USER_SCHEMA]: { manager: '' } },
      }).resource;
      expect(pathLess).not.toHaveProperty(ENTERPRISE_USER_SCHEMA);
      expect(without('managerEmptyString', managed(), op).resource[ENTERPRISE_USER_SCHEMA]).toEqual(
        { manager: { value: '' } },
      );
    });

    it('managerEmptyString: an empty id is no id in every form a PATCH can send it, as in a POST', () => {
      const path = `${ENTERPRISE_USER_SCHEMA}:manager`;
      const cleared = [
        { op: 'replace', path, value: { value: '' } },
        { op: 'Add', path, value: { Value: '' } },
        { op: 'replace', path: `${path}.value`, value: '' },
        { op: 'replace', path: ENTERPRISE_USER_SCHEMA, value: { manager: { value: '' } } },
        { op: 'replace', value: { [`${path}.value`]: '' } },
      ];
      for (const op of cleared) {
        const { resource } = patch(managed({ department: 'Music' }), op);
        expect(resource[ENTERPRISE_USER_SCHEMA], JSON.stringify(op)).toEqual({
          department: 'Music',
        });
        // Nothing else of the extension: it goes, with its URN.
        const alone = patch(managed(), op).resource;
        expect(alone, JSON.stringify(op)).not.toHaveProperty(ENTERPRISE_USER_SCHEMA);
        expect(alone.schemas).not.toContain(ENTERPRISE_USER_SCHEMA);
        // Rule off: the empty id is stored, as a POST stores it.
        expect(
          without('managerEmptyString', managed(), op).resource[ENTERPRISE_USER_SCHEMA],
          JSON.stringify(op),
        ).toEqual({ manager: { value: '' } });
      }
      // On a user without a manager, an empty one changes nothing.
      expect(patch(storedUser(), { op: 'add', path, value: '' }).changed).toBe(false);
    });

    it('emptyOperations: the SCIM Validator sends a PATCH with no operations', () => {
      const resource = managed();
      const result = applyPatch(resource, message(), {
        resourceType: resourceTypeOf(SCHEMAS),
      });
      expect(result.changed).toBe(false);
      expect(result.resource).toEqual(resource);
      const error = failure(() => without('emptyOperations', resource));
      expect(error.scimType).toBe('invalidSyntax');
      expect(error.detail).toContain('one or more operations');
    });
  });
});
