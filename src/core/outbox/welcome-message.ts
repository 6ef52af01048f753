import type { OutboxMessage } from '../../contracts/outbox.js';
import { isEmailAddress } from '../../schema/email.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { newId } from '../resources/new-id.js';

/**
 * Returns the address a user's welcome email goes to: the userName when it is an email
 * address (always so under the `'email'` userName rule), else the primary value of `emails`,
 * else its first one, when that is an address; `undefined` when the user has none.
 */
export function welcomeAddress(user: ScimUser): string | undefined {
  // The userName first: the contract's service mails the userName, and keeps doing so.
  if (isEmailAddress(user.userName)) return user.userName;
  const emails = user.emails;
  const chosen = emails?.find((email) => email.primary === true) ?? emails?.[0];
  const value = chosen?.value;
  return typeof value === 'string' && isEmailAddress(value) ? value : undefined;
}

/**
 * Builds the outbox message that asks for a user's welcome email, or returns `undefined` when
 * the user has no address to send it to (see {@link welcomeAddress}).
 */
export function welcomeMessage(
  tenant: string,
  user: ScimUser,
  now: string,
): OutboxMessage | undefined {
  const to = welcomeAddress(user);
  if (to === undefined) return undefined;
  const message: { -readonly [K in keyof OutboxMessage]: OutboxMessage[K] } = {
    id: `welcome-${newId()}`,
    kind: 'welcome',
    tenant,
    userId: user.id,
    to,
    createdAt: now,
  };
  if (user.name?.givenName !== undefined) message.givenName = user.name.givenName;
  if (user.name?.familyName !== undefined) message.familyName = user.name.familyName;
  return message;
}
