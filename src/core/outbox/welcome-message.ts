import type { OutboxMessage } from '../../contracts/outbox.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { newId } from '../users/new-id.js';

/** Builds the outbox message that asks for a user's welcome email. */
export function welcomeMessage(tenant: string, user: ScimUser, now: string): OutboxMessage {
  const message: { -readonly [K in keyof OutboxMessage]: OutboxMessage[K] } = {
    id: `welcome-${newId()}`,
    kind: 'welcome',
    tenant,
    userId: user.id,
    to: user.userName,
    createdAt: now,
  };
  if (user.name?.givenName !== undefined) message.givenName = user.name.givenName;
  if (user.name?.familyName !== undefined) message.familyName = user.name.familyName;
  return message;
}
