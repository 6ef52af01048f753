import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { defineAttribute as attr } from '../../src/schema/define-attribute.js';
import type { SchemaDefinition } from '../../src/schema/types.js';
import { failure, message, resourceTypeOf, SCHEMAS, storedUser } from './fixtures.js';

const DISTRICT = 'urn:example:params:scim:schemas:extension:district:1.0:User';
const district: SchemaDefinition = {
  id: DISTRICT,
  name: 'District',
  description: 'A host-registered extension',
  attributes: [
    attr('studentNumber', 'string', { mutability: 'immutable' }),
    attr('enrolledAt', 'dateTime'),
    attr('grade', 'integer'),
    attr('gpa', 'decimal'),
    attr('tags', 'string', { multiValued: true }),
    attr('badges', 'string', { multiValued: true, mutability: 'immutable' }),
  ],
};
const options = { resourceType: resourceTypeOf([...SCHEMAS, district]) };
const run = (...ops: unknown[]) => applyPatch(storedUser(), message(...ops), options);
const path = (name: string) => `${DISTRICT}:${name}`;

describe('a host-registered extension', () => {
  it('patches every type and declares the extension', () => {
    const { resource } = run(
      { op: 'add', path: path('studentNumber'), value: 'S-1' },
      { op: 'add', path: path('enrolledAt'), value: '2026-09-01T08:00:00Z' },
      { op: 'add', path: path('grade'), value: 7 },
      { op: 'add', path: path('gpa'), value: 3.5 },
      { op: 'add', path: path('tags'), value: ['chess', 'choir'] },
      { op: 'add', path: path('tags'), value: ['CHESS', 'band'] },
    );
    expect(resource[DISTRICT]).toEqual({
      studentNumber: 'S-1',
      enrolledAt: '2026-09-01T08:00:00Z',
      grade: 7,
      gpa: 3.5,
      tags: ['chess', 'choir', 'band'],
    });
    expect(resource.schemas).toContain(DISTRICT);
  });

  it.each([
    ['enrolledAt', 'yesterday'],
    ['grade', 7.5],
    ['grade', '7'],
    ['gpa', 'high'],
    ['tags', [['nested']]],
  ])('refuses %s = %j with invalidValue', (name, value) => {
    expect(failure(() => run({ op: 'add', path: path(name), value })).scimType).toBe(
      'invalidValue',
    );
  });

  it('removes members of a simple multi-valued attribute by value', () => {
    const first = run({ op: 'add', path: path('tags'), value: ['a', 'b', 'c'] }).resource;
    const { resource } = applyPatch(
      first,
      message({ op: 'Remove', path: path('tags'), value: ['b'] }),
      options,
    );
    expect((resource[DISTRICT] as Record<string, unknown>).tags).toEqual(['a', 'c']);
  });

  it('lets an immutable attribute be set once only', () => {
    const first = run({ op: 'add', path: path('studentNumber'), value: 'S-1' }).resource;
    const again = message({ op: 'replace', path: path('studentNumber'), value: 'S-2' });
    expect(failure(() => applyPatch(first, again, options)).scimType).toBe('mutability');
    const remove = message({ op: 'remove', path: path('studentNumber') });
    expect(failure(() => applyPatch(first, remove, options)).scimType).toBe('mutability');
  });

  it('lets an immutable multi-valued attribute be set once, and restated unchanged', () => {
    const first = run({ op: 'add', path: path('badges'), value: ['gold', 'silver'] }).resource;
    for (const op of [
      { op: 'add', path: path('badges'), value: ['bronze'] },
      { op: 'remove', path: path('badges'), value: ['gold'] },
      { op: 'replace', path: path('badges'), value: ['gold'] },
      { op: 'remove', path: path('badges') },
    ]) {
      expect(failure(() => applyPatch(first, message(op), options)).scimType).toBe('mutability');
    }
    // Adding members it already has changes nothing, so it is no change of an immutable value.
    const same = message({ op: 'add', path: path('badges'), value: ['GOLD', 'silver'] });
    expect(applyPatch(first, same, options).changed).toBe(false);
  });
});
