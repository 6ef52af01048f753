import { ScimConfigError } from '../../errors/index.js';
import { webhookSigner, type WebhookSigner } from './webhook-signer.js';

/** Where a tenant's events are sent, and the secrets they are signed with. */
export interface WebhookEndpoint {
  /** An `https:` URL; `http:` only on a loopback host (127.0.0.0/8, `::1`, `localhost`). */
  readonly url: string;
  /**
   * One `whsec_` secret, or two while one is replaced: each message then carries a signature
   * of each, and the receiver may switch to the new secret at any moment of the overlap.
   */
  readonly secrets: readonly string[];
}

/** An endpoint whose URL and secrets were checked, ready to send to. */
export interface CheckedWebhookEndpoint {
  /** The endpoint's URL, parsed. */
  readonly url: URL;
  /** Signs each message with the endpoint's secrets. */
  readonly signer: WebhookSigner;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * Checks a webhook endpoint: its URL is absolute, `https:` (plain `http:` only to a loopback
 * host, for development: the events carry the directory's people), without user or password
 * (`fetch` refuses those) and without a fragment; its secrets are `whsec_` secrets.
 *
 * @param where - names the option in an error.
 * @throws ScimConfigError naming what is wrong.
 * @example
 * ```ts
 * checkWebhookEndpoint({ url: 'https://app.example.org/hooks/scim', secrets: [secret] });
 * ```
 */
export function checkWebhookEndpoint(
  endpoint: WebhookEndpoint,
  where = 'checkWebhookEndpoint',
): CheckedWebhookEndpoint {
  if (typeof endpoint !== 'object' || endpoint === null)
    throw new ScimConfigError(`${where}: an endpoint is { url, secrets }.`);
  let url: URL;
  try {
    url = new URL(endpoint.url);
  } catch {
    throw new ScimConfigError(`${where}: "${String(endpoint.url)}" is not an absolute URL.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    throw new ScimConfigError(
      `${where}: the webhook URL must be https: (plain http: only to 127.0.0.1, ::1 or localhost, for development); got ${url.protocol}//${url.host}.`,
    );
  if (url.username !== '' || url.password !== '')
    throw new ScimConfigError(
      `${where}: the webhook URL must not carry a user or password; the receiver checks the signature instead.`,
    );
  if (url.hash !== '')
    throw new ScimConfigError(`${where}: the webhook URL must not have a #fragment.`);
  return { url, signer: webhookSigner(endpoint.secrets, where) };
}
