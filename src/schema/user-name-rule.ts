import { ScimConfigError, scimErrors } from '../errors/index.js';
import { MAX_KEY_TEXT_LENGTH } from './check-key-text.js';
import { isEmailAddress, MAX_EMAIL_LENGTH } from './email.js';

/**
 * Selects which userNames a server accepts (the `userNameRule` option of `createScim`):
 * - `'rfc'`: any non-empty string (RFC 7643 §4.1.1), the library's default;
 * - `'email'`: an email address of at most 254 characters;
 * - a function of the host's, which returns why it refuses a userName, or `undefined` to
 *   accept it.
 *
 * Every rule also refuses the empty string, control characters (U+0000–U+001F,
 * U+007F–U+009F), white space at the start or the end, and userNames longer than 512
 * characters; uniqueness is always per tenant regardless of case (see `userNameKey`).
 *
 * @example
 * ```ts
 * createScim({ ...options, userNameRule: 'email' });
 * ```
 */
export type UserNameRule = 'rfc' | 'email' | ((userName: string) => string | undefined);

/**
 * The longest userName the `'rfc'` rule and a host's rule accept, in characters (UTF-16 code
 * units, as JavaScript counts them): the userName's key is a store's key, like every text of
 * {@link MAX_KEY_TEXT_LENGTH}.
 */
export const MAX_USER_NAME_LENGTH = MAX_KEY_TEXT_LENGTH;

/** Checks a userName a write would store; throws a 400 that names the rule that refused it. */
export type UserNameCheck = (userName: unknown) => asserts userName is string;

// C0, DEL and C1: invisible in an admin's list and in a mail header, whatever the rule.
const CONTROL = /\p{Cc}/u;

// White space (and the byte-order mark) at either end: `"  ada  "` would look like `"ada"` in
// an admin's list yet be a second account, whatever the rule.
const PADDED = /^\s|\s$/u;

/**
 * Returns the check of a userName under `rule`, for every write (POST, PUT, PATCH) to apply.
 *
 * @throws ScimConfigError when `rule` is neither `'rfc'`, `'email'` nor a function.
 * @see RFC 7643 §4.1.1
 */
export function userNameCheck(rule: UserNameRule): UserNameCheck {
  const refusal = refusalOf(rule);
  return (userName) => {
    if (userName === undefined) throw scimErrors.invalidValue('"userName" is required.');
    if (typeof userName !== 'string') throw scimErrors.invalidValue('"userName" must be a string.');
    if (userName.length === 0) throw scimErrors.invalidValue('"userName" must not be empty.');
    const max = rule === 'email' ? MAX_EMAIL_LENGTH : MAX_USER_NAME_LENGTH;
    if (userName.length > max) {
      throw scimErrors.invalidValue(
        `"userName" must be at most ${max} characters (${ruleName(rule)}); got ${userName.length}.`,
      );
    }
    if (CONTROL.test(userName)) {
      throw scimErrors.invalidValue(
        '"userName" must not contain a control character (U+0000–U+001F, U+007F–U+009F), under every userNameRule.',
      );
    }
    if (PADDED.test(userName)) {
      throw scimErrors.invalidValue(
        `"userName" must not begin or end with white space, under every userNameRule; got "${userName}".`,
      );
    }
    const reason = refusal(userName);
    if (reason !== undefined)
      throw scimErrors.invalidValue(`"userName" ${reason}; got "${userName}".`);
  };
}

// What the rule itself says of a userName that passed the shared checks: why it is refused,
// or undefined.
function refusalOf(rule: UserNameRule): (userName: string) => string | undefined {
  if (rule === 'rfc') return () => undefined;
  if (rule === 'email') {
    return (userName) =>
      isEmailAddress(userName) ? undefined : `must be an email address (${ruleName(rule)})`;
  }
  if (typeof rule !== 'function') {
    throw new ScimConfigError(
      `createScim: userNameRule must be "rfc", "email" or a function; got ${JSON.stringify(rule)}.`,
    );
  }
  return (userName) => {
    const reason = rule(userName);
    return reason === undefined ? undefined : `was refused by the host's userNameRule: ${reason}`;
  };
}

// How an error names the rule that refused a value.
function ruleName(rule: UserNameRule): string {
  return typeof rule === 'function' ? "the host's userNameRule" : `userNameRule "${rule}"`;
}
