import type { LoggedEvent } from '../../contracts/event-log.js';
import type { WelcomeEmail } from '../../contracts/mailer.js';
import { isEmailAddress } from '../../schema/email.js';

/** The members of a user the welcome email reads. */
interface Invitee {
  readonly userName?: unknown;
  readonly emails?: readonly { readonly value?: unknown; readonly primary?: unknown }[];
  readonly name?: { readonly givenName?: unknown; readonly familyName?: unknown };
}

/**
 * Returns the address a user's welcome email goes to: the userName when it is an email
 * address (always so under the `'email'` userName rule), else the primary value of `emails`,
 * else its first one, when that is an address; `undefined` when the user has none.
 */
export function welcomeAddress(user: Invitee): string | undefined {
  // The userName first: the contract's service mails the userName, and keeps doing so.
  if (typeof user.userName === 'string' && isEmailAddress(user.userName)) return user.userName;
  const emails = Array.isArray(user.emails) ? user.emails : undefined;
  const chosen = emails?.find((email) => email?.primary === true) ?? emails?.[0];
  const value = chosen?.value;
  return typeof value === 'string' && isEmailAddress(value) ? value : undefined;
}

/**
 * Builds the welcome email a `user.invited` event asks for, from the user as the event
 * recorded it, keyed by the event's id (stable across retries); `undefined` when that user has
 * no address to send to (see {@link welcomeAddress}).
 */
export function welcomeEmail(event: LoggedEvent): WelcomeEmail | undefined {
  const user = (event.data.resource ?? {}) as Invitee;
  const to = welcomeAddress(user);
  if (to === undefined) return undefined;
  const email: { -readonly [K in keyof WelcomeEmail]: WelcomeEmail[K] } = {
    id: event.id,
    kind: 'welcome',
    tenant: event.tenant,
    userId: event.data.id,
    to,
    createdAt: event.occurredAt,
    idempotencyKey: event.id,
  };
  const { givenName, familyName } = user.name ?? {};
  if (typeof givenName === 'string') email.givenName = givenName;
  if (typeof familyName === 'string') email.familyName = familyName;
  return email;
}
