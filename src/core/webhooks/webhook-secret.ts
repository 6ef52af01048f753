import { ScimConfigError } from '../../errors/index.js';

/** What every Standard Webhooks signing secret starts with, so it is recognised as one. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

// The Standard Webhooks bounds of a symmetric secret: at least 192 bits, at most 512.
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
const NEW_SECRET_BYTES = 32;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Reads a `whsec_` secret into the bytes of its HMAC key.
 *
 * @param where - names the option or variable in the error, e.g. `webhookSubscriber: secrets[0]`.
 * @throws ScimConfigError for a secret without the prefix, with text that is not padded
 *   base64, or with fewer than 24 or more than 64 bytes.
 */
export function readWebhookSecret(secret: string, where: string): Uint8Array {
  if (typeof secret !== 'string' || !secret.startsWith(WEBHOOK_SECRET_PREFIX))
    throw new ScimConfigError(
      `${where}: a webhook secret is "${WEBHOOK_SECRET_PREFIX}" followed by base64 (make one with generateWebhookSecret()).`,
    );
  const text = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!BASE64.test(text))
    throw new ScimConfigError(
      `${where}: what follows "${WEBHOOK_SECRET_PREFIX}" is not padded base64 (A-Z, a-z, 0-9, +, /, =).`,
    );
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  if (bytes.length < MIN_SECRET_BYTES || bytes.length > MAX_SECRET_BYTES)
    throw new ScimConfigError(
      `${where}: a webhook secret holds ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes (this one ${bytes.length}).`,
    );
  return bytes;
}

/**
 * Makes a new Standard Webhooks signing secret: `whsec_` and the base64 of 32 bytes from the
 * platform's cryptographic random source. Give it to the endpoint's owner once; keep it as a
 * secret on both sides.
 *
 * @example
 * ```ts
 * const secret = generateWebhookSecret(); // 'whsec_q1v…='
 * ```
 */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(NEW_SECRET_BYTES));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `${WEBHOOK_SECRET_PREFIX}${btoa(binary)}`;
}
