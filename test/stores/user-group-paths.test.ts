import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../src/filter/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { groupsPartsRead } from '../../src/stores/user-group-paths.js';

const type = userResourceType();

describe('groupsPartsRead', () => {
  // One comparison takes a shortcut (no walk, a shared empty set): the walk of the same
  // comparison under `not` is the plain answer it is held to.
  it.each([
    'userName eq "a"',
    'groups eq "g"',
    'groups.value eq "g"',
    'GROUPS.Display eq "x"',
    'groups.$ref eq "x"',
    'groups.type pr',
    'urn:ietf:params:scim:schemas:core:2.0:User:groups.value eq "g"',
    'emails.value eq "a@b"',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "m"',
    'unknown eq 1',
  ])('reads of %s what the walk reads', (text) => {
    const filter = parseFilter(text);
    expect([...groupsPartsRead(filter, type)]).toEqual([
      ...groupsPartsRead({ kind: 'not', filter }, type),
    ]);
  });

  it('names the parts a comparison reads', () => {
    expect([...groupsPartsRead(parseFilter('groups.display eq "x"'), type)]).toEqual(['display']);
    expect([...groupsPartsRead(parseFilter('groups eq "g"'), type)]).toEqual(['groups']);
    expect(groupsPartsRead(parseFilter('userName eq "a"'), type).size).toBe(0);
  });
});
