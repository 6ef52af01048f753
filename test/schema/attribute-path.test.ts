import { describe, expect, it } from 'vitest';
import {
  isAttributeName,
  parseAttributePath,
  readAttributePath,
} from '../../src/schema/attribute-path.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

function refusal(text: string): { why: string; at: number } | undefined {
  try {
    readAttributePath(text, 0, text.length, (why, at) => {
      throw { why, at };
    });
    return undefined;
  } catch (error) {
    return error as { why: string; at: number };
  }
}

describe('isAttributeName', () => {
  it.each(['userName', '$ref', 'a-b_c$1', 'X'])('accepts %s', (name) => {
    expect(isAttributeName(name)).toBe(true);
  });
  it.each(['', '1abc', '-a', '_a', 'a.b', 'a b', 'né', 'a:b'])('refuses %j', (name) => {
    expect(isAttributeName(name)).toBe(false);
  });
});

describe('readAttributePath', () => {
  it.each([
    ['userName', { attribute: 'userName' }],
    ['name.givenName', { attribute: 'name', subAttribute: 'givenName' }],
    ['emails.$ref', { attribute: 'emails', subAttribute: '$ref' }],
    [
      `${ENTERPRISE}:manager.value`,
      { schema: ENTERPRISE, attribute: 'manager', subAttribute: 'value' },
    ],
    [`${ENTERPRISE}:department`, { schema: ENTERPRISE, attribute: 'department' }],
    [ENTERPRISE, { schema: ENTERPRISE.slice(0, ENTERPRISE.lastIndexOf(':')), attribute: 'User' }],
  ])('reads %s', (text, path) => {
    expect(parseAttributePath(text)).toEqual(path);
  });

  it.each([
    ['', 'expected an attribute name', 0],
    ['1abc', 'expected an attribute name', 0],
    [':userName', 'expected a schema URN before ":"', 0],
    ['u rn:x:userName', 'invalid character in schema URN', 1],
    ['1urn:x:userName', 'invalid character in schema URN', 0],
    ['name.', 'expected a sub-attribute name', 5],
    ['name.given.name', 'invalid character in attribute path', 10],
    ['urn:x:9', 'expected an attribute name', 6],
  ])('refuses %j: %s at %i', (text, why, at) => {
    expect(refusal(text)).toEqual({ why, at });
    expect(parseAttributePath(text)).toBeUndefined();
  });

  it('reads only the part of the text it is given', () => {
    const text = 'emails[type eq "work"]';
    expect(
      readAttributePath(text, 0, 6, () => {
        throw new Error('refused');
      }),
    ).toEqual({
      attribute: 'emails',
    });
  });
});
