import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { failure, message, OPTIONS, patch, storedUser } from './fixtures.js';

describe('applyPatch: the forms the core needs', () => {
  it('replaces a simple attribute by path', () => {
    const { resource, changed } = patch(storedUser(), {
      op: 'replace',
      path: 'active',
      value: false,
    });
    expect(resource.active).toBe(false);
    expect(changed).toBe(true);
  });

  it('replaces a sub-attribute and keeps its siblings', () => {
    const { resource } = patch(storedUser(), {
      op: 'replace',
      path: 'name.givenName',
      value: 'Augusta',
    });
    expect(resource.name).toEqual({ givenName: 'Augusta', familyName: 'Lovelace' });
  });

  it('adds a simple attribute that had no value', () => {
    const { resource } = patch(storedUser(), { op: 'add', path: 'nickName', value: 'Ada' });
    expect(resource.nickName).toBe('Ada');
  });

  it('removes a simple attribute and a sub-attribute', () => {
    const { resource } = patch(
      storedUser(),
      { op: 'remove', path: 'displayName' },
      { op: 'remove', path: 'name.familyName' },
    );
    expect(resource).not.toHaveProperty('displayName');
    expect(resource.name).toEqual({ givenName: 'Ada' });
  });

  it('drops a complex attribute whose last sub-attribute is removed', () => {
    const { resource } = patch(
      storedUser(),
      { op: 'remove', path: 'name.givenName' },
      { op: 'remove', path: 'name.familyName' },
    );
    expect(resource).not.toHaveProperty('name');
  });

  it('adds roles without touching the others, and replaces or removes them all', () => {
    const added = patch(storedUser(), {
      op: 'add',
      path: 'roles',
      value: [{ value: 'writer' }],
    }).resource;
    expect(added.roles).toEqual([{ value: 'reader' }, { value: 'writer' }]);
    const replaced = patch(storedUser(), {
      op: 'replace',
      path: 'roles',
      value: [{ value: 'admin' }],
    }).resource;
    expect(replaced.roles).toEqual([{ value: 'admin' }]);
    const removed = patch(storedUser(), { op: 'remove', path: 'roles' }).resource;
    expect(removed).not.toHaveProperty('roles');
  });

  it('applies a path-less replace of simple attributes ({"active": false})', () => {
    const { resource } = patch(storedUser(), {
      op: 'replace',
      value: { active: false, displayName: 'A. L.' },
    });
    expect(resource.active).toBe(false);
    expect(resource.displayName).toBe('A. L.');
  });

  it('replaces only the given sub-attributes in a path-less replace of a complex attribute', () => {
    const { resource } = patch(storedUser(), {
      op: 'replace',
      value: { name: { givenName: 'Augusta' } },
    });
    expect(resource.name).toEqual({ givenName: 'Augusta', familyName: 'Lovelace' });
  });

  it('matches attribute names in any case and stores them canonically', () => {
    const { resource } = patch(
      storedUser(),
      { op: 'replace', path: 'NAME.GIVENNAME', value: 'Augusta' },
      { op: 'replace', value: { DisplayName: 'Countess', ACTIVE: false } },
    );
    expect(resource.name).toEqual({ givenName: 'Augusta', familyName: 'Lovelace' });
    expect(resource.displayName).toBe('Countess');
    expect(resource.active).toBe(false);
    expect(resource).not.toHaveProperty('DisplayName');
  });

  it('reports no change when the result equals the input', () => {
    const result = patch(storedUser(), { op: 'replace', path: 'active', value: true });
    expect(result.changed).toBe(false);
    expect(result.resource).toEqual(storedUser());
  });

  it('never changes meta', () => {
    const { resource } = patch(storedUser(), { op: 'replace', path: 'active', value: false });
    expect(resource.meta).toEqual(storedUser().meta);
  });

  it('applies every operation or none', () => {
    const user = storedUser();
    const error = failure(() =>
      patch(
        user,
        { op: 'replace', path: 'active', value: false },
        { op: 'replace', path: 'displayName', value: 42 },
      ),
    );
    expect(error.scimType).toBe('invalidValue');
    expect(error.detail).toMatch(/^Operation 2:/);
    expect(user).toEqual(storedUser());
  });

  it('never mutates the input, even on success', () => {
    const user = storedUser();
    const frozen = structuredClone(user);
    patch(
      user,
      { op: 'replace', path: 'name.givenName', value: 'X' },
      { op: 'add', path: 'emails', value: [{ value: 'x@y.z', type: 'other', primary: true }] },
      { op: 'remove', path: 'roles' },
    );
    expect(user).toEqual(frozen);
  });

  it('applies operations in order', () => {
    const { resource } = patch(
      storedUser(),
      { op: 'remove', path: 'roles' },
      { op: 'add', path: 'roles', value: [{ value: 'a' }] },
      { op: 'replace', path: 'roles[value eq "a"].display', value: 'A' },
    );
    expect(resource.roles).toEqual([{ value: 'a', display: 'A' }]);
  });

  it('is usable through the documented signature with a raw body', () => {
    const body: unknown = JSON.parse(
      JSON.stringify(message({ op: 'replace', path: 'active', value: false })),
    );
    expect(applyPatch(storedUser(), body, OPTIONS).resource.active).toBe(false);
  });
});
