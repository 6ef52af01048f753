import { ScimConfigError } from '../../errors/index.js';
import { readWebhookSecret } from './webhook-secret.js';

/** The three Standard Webhooks headers of one delivery. */
export interface WebhookHeaders {
  /** The event's id: the same on every attempt, so the receiver can drop a repeat. */
  readonly 'webhook-id': string;
  /** When this attempt was signed, in whole seconds since the Unix epoch. */
  readonly 'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256>` per secret, separated by a space. */
  readonly 'webhook-signature': string;
}

/** What one signature covers. */
export interface WebhookMessage {
  /** The message id (no `.` and no whitespace: the signed text joins the parts with dots). */
  readonly id: string;
  /** Seconds since the Unix epoch. */
  readonly timestamp: number;
  /** The exact body that is sent. */
  readonly body: string;
}

/** Signs webhook messages with one secret, or two while one is being replaced. */
export interface WebhookSigner {
  /** Returns the headers that carry `message`'s id, timestamp and signatures. */
  sign(message: WebhookMessage): Promise<WebhookHeaders>;
}

const encoder = new TextEncoder();
const MESSAGE_ID = /^[^.\s]{1,256}$/;

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Builds a Standard Webhooks signer: each message is signed with HMAC-SHA256 (Web Crypto, so
 * it runs on Node, Bun, Deno and workerd) over `id.timestamp.body`, once per secret. While a
 * secret is rotated both are given, and a receiver that knows either accepts the message.
 *
 * @param secrets - one or two `whsec_` secrets, checked here (at start).
 * @param where - names the option in an error.
 * @throws ScimConfigError for no secret, more than two, or one that is not a `whsec_` secret.
 * @see https://www.standardwebhooks.com/ (the signature scheme)
 * @example
 * ```ts
 * const signer = webhookSigner([process.env.WEBHOOK_SECRET!]);
 * const headers = await signer.sign({ id: event.id, timestamp: Math.floor(Date.now() / 1000), body });
 * ```
 */
export function webhookSigner(secrets: readonly string[], where = 'webhookSigner'): WebhookSigner {
  if (!Array.isArray(secrets) || secrets.length < 1 || secrets.length > 2)
    throw new ScimConfigError(
      `${where}: give one webhook secret, or two while one is being replaced (got ${Array.isArray(secrets) ? secrets.length : typeof secrets}).`,
    );
  const raw = secrets.map((secret, i) => readWebhookSecret(secret, `${where}: secrets[${i}]`));
  let keys: Promise<CryptoKey[]> | undefined;
  // Imported on the first message, not at start: some runtimes allow no crypto in global scope.
  const hmacKeys = () =>
    (keys ??= Promise.all(
      raw.map((bytes) =>
        crypto.subtle.importKey(
          'raw',
          bytes as Uint8Array<ArrayBuffer>,
          { name: 'HMAC', hash: 'SHA-256' },
          false,
          ['sign'],
        ),
      ),
    ));
  return {
    async sign({ id, timestamp, body }) {
      if (typeof id !== 'string' || !MESSAGE_ID.test(id))
        throw new TypeError(`A webhook message id has 1 to 256 characters, no "." and no space.`);
      if (!Number.isSafeInteger(timestamp) || timestamp < 0)
        throw new TypeError('A webhook timestamp is a whole number of seconds since the epoch.');
      const signed = encoder.encode(`${id}.${timestamp}.${body}`);
      const signatures = await Promise.all(
        (await hmacKeys()).map(
          async (key) => `v1,${base64(await crypto.subtle.sign('HMAC', key, signed))}`,
        ),
      );
      return {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatures.join(' '),
      };
    },
  };
}
