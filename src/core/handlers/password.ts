import type { HandlerContext } from './context.js';

/**
 * Hands a client's writeOnly `password` to the host's `onPassword` hook after the write. A
 * failing hook is reported to `onError`; the SCIM request has already succeeded.
 */
export async function deliverPassword(
  context: HandlerContext,
  userId: string,
  password: string | undefined,
): Promise<void> {
  const hook = context.config.onPassword;
  if (password === undefined || !hook) return;
  try {
    await hook(context.tenant.id, userId, password);
  } catch (error) {
    context.config.reportError(error);
  }
}
