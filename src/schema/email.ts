/** The longest userName accepted: the practical limit of an email address (RFC 5321 §4.5.3.1.3). */
export const MAX_EMAIL_LENGTH = 254;

// One `@`, no white space, a dotted domain. Deliberately simple: the mailbox is proven by the
// welcome email, not by a grammar.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** Tells whether a string is an email address scimkit accepts as a userName. */
export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);
}
