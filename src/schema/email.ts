/** The longest email address accepted: the practical limit of RFC 5321 §4.5.3.1.3. */
export const MAX_EMAIL_LENGTH = 254;

// One `@`, no white space, no control character, a dotted domain. Deliberately simple: the
// mailbox is proven by the welcome email, not by a grammar. Control characters (C0, DEL, C1)
// are refused because no mail system routes them and they would reach a mail header.
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@.\p{Cc}]+(?:\.[^\s@.\p{Cc}]+)+$/u;

/**
 * Tells whether a string is an email address scimkit accepts (as a userName under the
 * `'email'` rule, or as a welcome email's recipient): at most {@link MAX_EMAIL_LENGTH}
 * characters, one `@`, no white space and no control character.
 */
export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);
}
