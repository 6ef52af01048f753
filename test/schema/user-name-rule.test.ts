import { describe, expect, it } from 'vitest';
import { isScimError, ScimConfigError } from '../../src/errors/index.js';
import {
  MAX_USER_NAME_LENGTH,
  userNameCheck,
  type UserNameCheck,
  type UserNameRule,
} from '../../src/schema/user-name-rule.js';

/** What the check says of a userName: `'ok'`, or the 400's scimType and detail. */
function verdict(rule: UserNameRule, userName: unknown) {
  try {
    const check: UserNameCheck = userNameCheck(rule);
    check(userName);
    return 'ok';
  } catch (error) {
    if (!isScimError(error)) throw error;
    expect(error.status).toBe(400);
    return { scimType: error.scimType, detail: error.detail };
  }
}
const detail = (rule: UserNameRule, userName: unknown) => {
  const result = verdict(rule, userName);
  if (result === 'ok') throw new Error(`${JSON.stringify(userName)} was accepted`);
  expect(result.scimType).toBe('invalidValue');
  return result.detail;
};

const hostRule = (userName: string) =>
  /^[a-z]+$/.test(userName) ? undefined : 'only lower-case letters, please';
const every: UserNameRule[] = ['rfc', 'email', hostRule];

describe('userNameCheck', () => {
  it('the RFC rule takes any non-empty string: a login, a GUID, a DN', () => {
    for (const name of ['jdoe', '0f8fad5b-d9cb-469f-a165-70867728950e', 'CN=J Doe,OU=x', 'a b'])
      expect(verdict('rfc', name), name).toBe('ok');
  });

  it('the email rule takes addresses of at most 254 characters and names itself when it refuses', () => {
    expect(verdict('email', 'ada@example.org')).toBe('ok');
    expect(detail('email', 'jdoe')).toBe(
      '"userName" must be an email address (userNameRule "email"); got "jdoe".',
    );
    expect(verdict('email', `${'a'.repeat(242)}@example.org`)).toBe('ok');
    expect(detail('email', `${'a'.repeat(250)}@example.org`)).toMatch(
      /at most 254 characters \(userNameRule "email"\)/,
    );
  });

  it("a host function's reason reaches the detail; undefined accepts", () => {
    expect(verdict(hostRule, 'jdoe')).toBe('ok');
    expect(detail(hostRule, 'JDoe')).toBe(
      `"userName" was refused by the host's userNameRule: only lower-case letters, please; got "JDoe".`,
    );
  });

  it('every rule requires a non-empty string', () => {
    for (const rule of every) {
      expect(detail(rule, undefined)).toBe('"userName" is required.');
      expect(detail(rule, 42)).toBe('"userName" must be a string.');
      expect(detail(rule, '')).toBe('"userName" must not be empty.');
    }
  });

  it('every rule refuses control characters (C0, DEL, C1), before the rule itself runs', () => {
    let asked = 0;
    const lenient = () => (asked++, undefined);
    for (const rule of [...every, lenient]) {
      for (const control of ['\u0000', '\u001f', '\u007f', '\u0085', '\u009f']) {
        expect(detail(rule, `ada${control}@example.org`)).toMatch(/control character/);
      }
    }
    expect(asked).toBe(0);
  });

  it(`every rule but email's stops at ${MAX_USER_NAME_LENGTH} characters, whatever the host says`, () => {
    const lenient = () => undefined;
    for (const rule of ['rfc', lenient] as const) {
      expect(verdict(rule, 'x'.repeat(MAX_USER_NAME_LENGTH))).toBe('ok');
      expect(detail(rule, 'x'.repeat(MAX_USER_NAME_LENGTH + 1))).toMatch(
        new RegExp(`at most ${MAX_USER_NAME_LENGTH} characters .*got ${MAX_USER_NAME_LENGTH + 1}`),
      );
    }
  });

  it('refuses a rule that is neither "rfc", "email" nor a function, at start-up', () => {
    expect(() => userNameCheck('RFC' as UserNameRule)).toThrow(ScimConfigError);
    expect(() => userNameCheck(undefined as unknown as UserNameRule)).toThrow(/userNameRule/);
  });
});
