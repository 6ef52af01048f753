/** The longest userName accepted: the practical limit of an email address (RFC 5321 §4.5.3.1.3). */
export const MAX_EMAIL_LENGTH = 254;

// One `@`, no white space, a dotted domain. Deliberately simple: the mailbox is proven by the
// welcome email, not by a grammar.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

// Control characters (C0, DEL, C1) are invisible in an admin's list and in a mail header, and
// no mail system routes them: a userName holding one is refused, whatever else it holds.
const CONTROL = /\p{Cc}/u;

/**
 * Tells whether a string is an email address scimkit accepts as a userName: at most
 * {@link MAX_EMAIL_LENGTH} characters, one `@`, no white space and no control character.
 */
export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value) && !CONTROL.test(value);
}
