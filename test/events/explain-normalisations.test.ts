import { describe, expect, it } from 'vitest';
import { explainNormalisations } from '../../src/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';

const schemas = userResourceType();
const patch = (...Operations: unknown[]) => ({ Operations });

describe('explainNormalisations', () => {
  it('names date-time text rewritten to its normal form, and nothing for equal text', () => {
    const stored = { id: '1', lastSeen: '2026-01-02T03:04:05Z', other: '2026-01-02T03:04:05Z' };
    const body = { lastSeen: '2026-01-02T04:04:05+01:00', other: '2026-01-02T03:04:05Z' };
    expect(explainNormalisations('PUT', body, stored, schemas)).toEqual([
      { rule: 'dateTime', path: 'lastSeen', received: body.lastSeen, stored: stored.lastSeen },
    ]);
  });

  it('follows a value filter and a sub-attribute in a PATCH path', () => {
    const stored = {
      emails: [
        { type: 'home', value: 'h@example.org', primary: false },
        { type: 'work', value: 'w@example.org', primary: true },
      ],
    };
    const body = patch({ op: 'replace', path: 'emails[type eq "work"].Primary', value: 'true' });
    expect(explainNormalisations('PATCH', body, stored, schemas)).toEqual([
      { rule: 'canonicalName', path: 'Operations[0]', received: 'Primary', stored: 'primary' },
      { rule: 'stringBooleans', path: 'Operations[0].value', received: 'true', stored: true },
    ]);
  });

  it('reads path-less values with dotted and URN keys', () => {
    const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
    const stored = {
      active: false,
      name: { givenName: 'Ada' },
      [enterprise]: { manager: { value: 'b' } },
    };
    const body = patch({
      op: 'replace',
      value: { 'name.givenName': 'Ada', active: 'False', [`${enterprise}:manager`]: 'b' },
    });
    expect(explainNormalisations('PATCH', body, stored, schemas).map((n) => n.rule)).toEqual([
      'stringBooleans',
      'managerString',
    ]);
  });

  it('reports nothing a rule does not explain, and survives any body', () => {
    const stored = { userName: 'a@example.org', active: true };
    expect(explainNormalisations('POST', { userName: 'A@example.org' }, stored, schemas)).toEqual(
      [],
    );
    for (const body of [null, 'x', 42, [], { Operations: 'no' }, patch(null, { path: '[[' })])
      expect(explainNormalisations('PATCH', body, stored, schemas)).toEqual([]);
    expect(explainNormalisations('GET', { active: 'True' }, stored, schemas)).toEqual([]);
    expect(explainNormalisations('POST', { active: 'True' }, undefined, schemas)).toEqual([]);
  });
});
