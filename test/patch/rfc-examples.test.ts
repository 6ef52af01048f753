import { describe, expect, it } from 'vitest';
import { parsePatchPath } from '../../src/patch/index.js';
import { ENTERPRISE_USER_SCHEMA, failure, patch, storedUser } from './fixtures.js';

// RFC 7644 §3.5.2 illustrates PATCH on a Group's `members`; a User has no members, so each
// example runs on the User attribute of the same shape (`roles`, `emails`, `addresses`).
const work = {
  type: 'work',
  streetAddress: '911 Universal City Plaza',
  locality: 'Hollywood',
  region: 'CA',
  postalCode: '91608',
  country: 'US',
  formatted: '911 Universal City Plaza\nHollywood, CA 91608 US',
  primary: true,
};
const withAddresses = () => ({
  ...storedUser(),
  addresses: [
    { ...work, streetAddress: '100 Universal City Plaza' },
    { type: 'home', locality: 'LA' },
  ],
});

describe('RFC 7644 §3.5.2 examples', () => {
  it.each([
    ['members', { attribute: 'members' }],
    ['name.familyName', { attribute: 'name', subAttribute: 'familyName' }],
    ['addresses[type eq "work"]', { attribute: 'addresses', filter: expect.anything() }],
    [
      'members[value eq "2819c223-7f76-453a-919d-413861904646"]',
      { attribute: 'members', filter: expect.anything() },
    ],
    [
      'members[value eq "2819c223-7f76-453a-919d-413861904646"].displayName',
      { attribute: 'members', subAttribute: 'displayName', filter: expect.anything() },
    ],
    [
      `${ENTERPRISE_USER_SCHEMA}:manager.value`,
      { schema: ENTERPRISE_USER_SCHEMA, attribute: 'manager', subAttribute: 'value' },
    ],
  ])('parses the path %s (Figure 7)', (path, expected) => {
    expect(parsePatchPath(path)).toEqual(expected);
  });

  it('§3.5.2.1 adds a value to a multi-valued attribute (members example)', () => {
    const { resource } = patch(storedUser(), {
      op: 'add',
      path: 'roles',
      value: [{ display: 'Babs Jensen', value: '2819c223-7f76-453a-919d-413861904646' }],
    });
    expect(resource.roles).toEqual([
      { value: 'reader' },
      { display: 'Babs Jensen', value: '2819c223-7f76-453a-919d-413861904646' },
    ]);
  });

  it('§3.5.2.1 adds attributes without a path (emails + "nickname" in another case)', () => {
    const { resource } = patch(storedUser(), {
      op: 'add',
      value: { emails: [{ value: 'babs@jensen.org', type: 'home' }], nickname: 'Babs' },
    });
    expect(resource.nickName).toBe('Babs');
    expect(resource.emails).toEqual([
      { value: 'ada@example.org', type: 'work', primary: true },
      { value: 'ada@home.example', type: 'home' },
      { value: 'babs@jensen.org', type: 'home' },
    ]);
  });

  it('§3.5.2.1 makes no change when the value is already there', () => {
    const result = patch(storedUser(), {
      op: 'add',
      path: 'emails',
      value: [{ value: 'ADA@example.org', type: 'work' }],
    });
    expect(result.changed).toBe(false);
  });

  it('§3.5.2.2 removes one member through a value filter', () => {
    const user = {
      ...storedUser(),
      roles: [{ value: '2819c223-7f76-453a-919d-413861904646' }, { value: 'keep' }],
    };
    const { resource } = patch(user, {
      op: 'remove',
      path: 'roles[value eq "2819c223-7f76-453a-919d-413861904646"]',
    });
    expect(resource.roles).toEqual([{ value: 'keep' }]);
  });

  it('§3.5.2.2 removes all members when no filter is given', () => {
    expect(patch(storedUser(), { op: 'remove', path: 'roles' }).resource).not.toHaveProperty(
      'roles',
    );
  });

  it('§3.5.2.2 removes all members, then adds new ones, in one request', () => {
    const { resource } = patch(
      storedUser(),
      { op: 'remove', path: 'roles' },
      { op: 'add', path: 'roles', value: [{ value: 'a' }, { value: 'b' }] },
    );
    expect(resource.roles).toEqual([{ value: 'a' }, { value: 'b' }]);
  });

  it('§3.5.2.2 removes the values matched by a complex filter', () => {
    const user = {
      ...storedUser(),
      emails: [
        { value: 'a@example.com', type: 'work' },
        { value: 'b@other.org', type: 'work' },
      ],
    };
    const { resource } = patch(user, {
      op: 'remove',
      path: 'emails[type eq "work" and value ew "example.com"]',
    });
    expect(resource.emails).toEqual([{ value: 'b@other.org', type: 'work' }]);
  });

  it('§3.5.2.2 leaves the attribute unassigned when its last value goes', () => {
    const { resource } = patch(storedUser(), { op: 'remove', path: 'roles[value eq "reader"]' });
    expect(resource).not.toHaveProperty('roles');
  });

  it('§3.5.2.2 fails with noTarget when remove has no path', () => {
    expect(
      failure(() => patch(storedUser(), { op: 'remove', value: { active: false } })).scimType,
    ).toBe('noTarget');
  });

  it('§3.5.2.3 replaces all values of a multi-valued attribute', () => {
    const { resource } = patch(storedUser(), {
      op: 'replace',
      path: 'roles',
      value: [{ display: 'Babs', value: 'x' }],
    });
    expect(resource.roles).toEqual([{ display: 'Babs', value: 'x' }]);
  });

  it('§3.5.2.3 replaces the values a filter matches (addresses[type eq "work"])', () => {
    const { resource } = patch(withAddresses(), {
      op: 'replace',
      path: 'addresses[type eq "work"]',
      value: work,
    });
    expect(resource.addresses).toEqual([work, { type: 'home', locality: 'LA' }]);
  });

  it('§3.5.2.3 replaces one sub-attribute of the matching values', () => {
    const { resource } = patch(withAddresses(), {
      op: 'replace',
      path: 'addresses[type eq "work"].streetAddress',
      value: '1010 Broadway Ave',
    });
    const [first, second] = resource.addresses as Record<string, unknown>[];
    expect(first).toEqual({ ...work, streetAddress: '1010 Broadway Ave' });
    expect(second).toEqual({ type: 'home', locality: 'LA' });
  });

  it('§3.5.2.3 replaces several attributes without a path', () => {
    const emails = [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ];
    const { resource } = patch(storedUser(), {
      op: 'replace',
      value: { emails, nickname: 'Babs' },
    });
    expect(resource.emails).toEqual(emails);
    expect(resource.nickName).toBe('Babs');
  });

  it('§3.5.2.3 treats a replace of an unassigned attribute as an add', () => {
    expect(
      patch(storedUser(), { op: 'replace', path: 'title', value: 'Countess' }).resource.title,
    ).toBe('Countess');
  });

  it('§3.5.2.3 fails with noTarget when a filter matches nothing and cannot create', () => {
    const error = failure(() =>
      patch(
        storedUser(),
        { op: 'replace', path: 'emails[type ne "work"].value', value: 'x@y.z' },
        { op: 'replace', path: 'emails[value co "nowhere"]', value: { value: 'n' } },
      ),
    );
    expect(error.scimType).toBe('noTarget');
  });

  it('§3.5.2 sets the other values to primary false when one becomes primary', () => {
    const { resource } = patch(storedUser(), {
      op: 'replace',
      path: 'emails[type eq "home"].primary',
      value: true,
    });
    expect(resource.emails).toEqual([
      { value: 'ada@example.org', type: 'work', primary: false },
      { value: 'ada@home.example', type: 'home', primary: true },
    ]);
  });

  it('§3.5.2 adds a primary value and clears the old primary', () => {
    const { resource } = patch(storedUser(), {
      op: 'add',
      path: 'emails',
      value: [{ value: 'new@x.org', type: 'other', primary: true }],
    });
    const primaries = (resource.emails as { primary?: boolean }[]).filter(
      (e) => e.primary === true,
    );
    expect(primaries).toEqual([{ value: 'new@x.org', type: 'other', primary: true }]);
  });

  it('§3.5.2 refuses two primary values in one value', () => {
    const error = failure(() =>
      patch(storedUser(), {
        op: 'replace',
        path: 'emails',
        value: [
          { value: 'a@x', primary: true },
          { value: 'b@x', primary: true },
        ],
      }),
    );
    expect(error.scimType).toBe('invalidValue');
  });

  it('§3.5.2 URN-qualified paths reach extension attributes and declare the extension', () => {
    const { resource } = patch(
      storedUser(),
      { op: 'add', path: `${ENTERPRISE_USER_SCHEMA}:employeeNumber`, value: '701984' },
      {
        op: 'add',
        path: `${ENTERPRISE_USER_SCHEMA}:manager.value`,
        value: '26118915-6090-4610-87e4-49d8ca9f808d',
      },
    );
    expect(resource[ENTERPRISE_USER_SCHEMA]).toEqual({
      employeeNumber: '701984',
      manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' },
    });
    expect(resource.schemas).toContain(ENTERPRISE_USER_SCHEMA);
  });

  it('removes the extension and its URN from schemas when its last attribute goes', () => {
    const user = {
      ...storedUser(),
      schemas: [...(storedUser().schemas as string[]), ENTERPRISE_USER_SCHEMA],
      [ENTERPRISE_USER_SCHEMA]: { department: 'R&D' },
    };
    const { resource } = patch(user, {
      op: 'remove',
      path: `${ENTERPRISE_USER_SCHEMA}:department`,
    });
    expect(resource).not.toHaveProperty(ENTERPRISE_USER_SCHEMA);
    expect(resource.schemas).not.toContain(ENTERPRISE_USER_SCHEMA);
  });

  it('accepts an extension URN key holding an object in a path-less value', () => {
    const { resource } = patch(storedUser(), {
      op: 'add',
      value: { [ENTERPRISE_USER_SCHEMA]: { department: 'R&D', costCenter: '4130' } },
    });
    expect(resource[ENTERPRISE_USER_SCHEMA]).toEqual({ department: 'R&D', costCenter: '4130' });
  });

  it('accepts the whole extension URN as a path', () => {
    const added = patch(storedUser(), {
      op: 'replace',
      path: ENTERPRISE_USER_SCHEMA,
      value: { division: 'North' },
    }).resource;
    expect(added[ENTERPRISE_USER_SCHEMA]).toEqual({ division: 'North' });
    const removed = patch(added, { op: 'remove', path: ENTERPRISE_USER_SCHEMA }).resource;
    expect(removed).not.toHaveProperty(ENTERPRISE_USER_SCHEMA);
    expect(removed.schemas).toEqual(storedUser().schemas);
  });
});
