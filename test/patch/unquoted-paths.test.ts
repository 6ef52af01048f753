import { describe, expect, it } from 'vitest';
import { applyPatch, parsePatchPath } from '../../src/patch/index.js';
import { compileResourceType } from '../../src/schema/resource-type.js';
import { groupSchema } from '../../src/schema/group-schema.js';
import { patchBody, setup, USER_SCHEMA } from '../core/harness.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { ENTERPRISE_USER_SCHEMA, failure, message, patch, storedUser } from './fixtures.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';

// Dialect rule `unquotedFilterValues` (docs/patch.md): a value filter inside a PATCH path reads
// values without quotes as a `?filter=` does, `emails[type eq work].value`, and the same switch
// turns both off.
const STRICT = userResourceType({ rules: { unquotedFilterValues: false } });
const strictly = (resource: Record<string, unknown>, ...operations: unknown[]) =>
  applyPatch(resource, message(...operations), { resourceType: STRICT });

describe('parsePatchPath with unquotedValues', () => {
  it('reads a bare word as a string, a JSON number as a number, as parseFilter does', () => {
    expect(parsePatchPath('emails[type eq work].value', { unquotedValues: true })).toEqual(
      parsePatchPath('emails[type eq "work"].value'),
    );
    expect(parsePatchPath('members[value eq 2819c223]', { unquotedValues: true })).toEqual(
      parsePatchPath('members[value eq "2819c223"]'),
    );
    expect(parsePatchPath('x[n eq 12]', { unquotedValues: true })).toEqual(
      parsePatchPath('x[n eq 12]'),
    );
    expect(parsePatchPath('roles[primary eq true]', { unquotedValues: true })).toEqual(
      parsePatchPath('roles[primary eq true]'),
    );
  });

  it('refuses bare words without the option (RFC 7644), as invalidPath', () => {
    for (const path of ['emails[type eq work].value', 'members[value eq 2819c223]']) {
      const error = failure(() => parsePatchPath(path));
      expect(error.scimType).toBe('invalidPath');
      expect(error.detail).toContain(`The path "${path}" is not valid`);
      expect(failure(() => parsePatchPath(path, { unquotedValues: false })).scimType).toBe(
        'invalidPath',
      );
    }
  });
});

describe('PATCH paths under the resource type’s unquotedFilterValues', () => {
  it('replaces the work email through emails[type eq work].value with the rule on (the default)', () => {
    const op = { op: 'Replace', path: 'emails[type eq work].value', value: 'ada@work.example' };
    const { resource } = patch(storedUser(), op);
    expect(resource.emails).toEqual([
      { value: 'ada@work.example', type: 'work', primary: true },
      { value: 'ada@home.example', type: 'home' },
    ]);
    expect(failure(() => strictly(storedUser(), op)).scimType).toBe('invalidPath');
  });

  it('removes a group member by members[value eq 2819c223], and refuses it with the rule off', () => {
    const group = {
      schemas: [GROUP_SCHEMA],
      id: 'g1',
      displayName: 'Tour Guides',
      members: [{ value: '2819c223' }, { value: '902c246b' }],
    };
    const op = { op: 'remove', path: 'members[value eq 2819c223]' };
    const type = (unquotedFilterValues: boolean) =>
      compileResourceType({
        name: 'Group',
        endpoint: '/Groups',
        schema: groupSchema,
        rules: { unquotedFilterValues },
      });
    const { resource } = applyPatch(group, message(op), { resourceType: type(true) });
    expect(resource.members).toEqual([{ value: '902c246b' }]);
    const error = failure(() => applyPatch(group, message(op), { resourceType: type(false) }));
    expect(error.scimType).toBe('invalidPath');
  });

  it('removes the manager by an unquoted manager[value eq <id>] (with managerValueFilter)', () => {
    const boss = '26118915-6090-4610-87e4-49d8ca9f808d';
    const user = {
      ...storedUser(),
      [ENTERPRISE_USER_SCHEMA]: { department: 'Maths', manager: { value: boss } },
    };
    const op = { op: 'remove', path: `manager[value eq ${boss}]` };
    expect(patch(user, op).resource[ENTERPRISE_USER_SCHEMA]).toEqual({ department: 'Maths' });
    expect(failure(() => strictly(user, op)).scimType).toBe('invalidPath');
  });

  it('keeps quoted values working with the rule on and off', () => {
    const op = { op: 'replace', path: 'emails[type eq "home"].value', value: 'a@b.example' };
    const emails = (r: Record<string, unknown>) => (r.emails as { value: string }[])[1]?.value;
    expect(emails(patch(storedUser(), op).resource)).toBe('a@b.example');
    expect(emails(strictly(storedUser(), op).resource)).toBe('a@b.example');
  });
});

describe('over HTTP, through createScim', () => {
  async function replaceWorkEmail(patchRules?: { unquotedFilterValues: false }) {
    const api = setup(patchRules ? { patchRules } : {});
    const made = await api.request('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName: 'ada@example.org',
        emails: [{ type: 'work', value: 'ada@example.org', primary: true }],
      },
    });
    expect(made.status).toBe(201);
    return api.request('PATCH', `/Users/${made.body.id as string}`, {
      body: patchBody({
        op: 'Replace',
        path: 'emails[type eq work].value',
        value: 'ada@work.example',
      }),
    });
  }

  it('answers 200 by default, and 400 invalidPath with patchRules switching the rule off', async () => {
    const on = await replaceWorkEmail();
    expect(on.status).toBe(200);
    expect(on.body.emails).toEqual([{ type: 'work', value: 'ada@work.example', primary: true }]);
    const off = await replaceWorkEmail({ unquotedFilterValues: false });
    expect(off.status).toBe(400);
    expect(off.body.scimType).toBe('invalidPath');
  });
});
