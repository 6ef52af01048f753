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

/** Finds the password a PATCH sets: `path: "password"`, or a path-less value's `password`. */
export function passwordInPatch(body: unknown): string | undefined {
  const operations = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(operations)) return undefined;
  let found: string | undefined;
  for (const operation of operations as Array<Record<string, unknown> | null>) {
    const op = typeof operation?.op === 'string' ? operation.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace') continue;
    const path =
      typeof operation?.path === 'string' ? operation.path.trim().toLowerCase() : undefined;
    const value = operation?.value;
    if (path === 'password' && typeof value === 'string') found = value;
    if (path === undefined && typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value))
        if (key.toLowerCase() === 'password' && typeof v === 'string') found = v;
    }
  }
  return found;
}
