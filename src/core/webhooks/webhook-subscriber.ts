import type { DirectoryEvent } from '../../contracts/event-log.js';
import { ScimConfigError } from '../../errors/index.js';
import type { DeliveryContext } from '../subscriptions/types.js';
import { WebhookDeliveryError } from './webhook-delivery-error.js';
import {
  checkWebhookEndpoint,
  type CheckedWebhookEndpoint,
  type WebhookEndpoint,
} from './webhook-endpoint.js';

/** What the subscriber runner tells a handler about the attempt it runs. */
export type WebhookAttempt = DeliveryContext;

/** A subscriber handler: resolves once the event is delivered, rejects when the attempt failed. */
export type WebhookHandler = (event: DirectoryEvent, context: WebhookAttempt) => Promise<void>;

/** Where a tenant's events go: one endpoint for all, or one per tenant (none: not sent). */
export type WebhookEndpoints =
  | WebhookEndpoint
  | ((tenant: string) => WebhookEndpoint | undefined | Promise<WebhookEndpoint | undefined>);

/** Options of {@link webhookSubscriber}. */
export interface WebhookSubscriberOptions {
  /**
   * The endpoint of every tenant, checked at once; or a function that names a tenant's
   * endpoint (`undefined`: the tenant has none, and its events are passed over), checked on
   * each attempt, a bad one failing the attempt with a `ScimConfigError`.
   */
  readonly endpoint: WebhookEndpoints;
  /** How long an endpoint has to answer, in milliseconds. Default 15,000. */
  readonly timeoutMs?: number;
  /** The `fetch` to send with. Default: the platform's. */
  readonly fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_TIMEOUT_MS = 300_000;
/** How much of a refusing endpoint's answer an error quotes. */
const EXCERPT_BYTES = 200;

/**
 * Builds a subscriber handler that POSTs each event, as JSON, to the tenant's endpoint,
 * signed per the Standard Webhooks specification: `webhook-id` is the event's id (the same on
 * every retry, so the receiver can drop a repeat), `webhook-timestamp` the attempt's time,
 * `webhook-signature` one `v1,` signature per secret. A 2xx answer delivers the event; any
 * other answer, a redirect (never followed), no answer within `timeoutMs`, or a network error
 * fails the attempt with a {@link WebhookDeliveryError}, and the subscriber retries it.
 *
 * @throws ScimConfigError at once for a fixed endpoint whose URL is not `https:` (outside
 *   loopback) or whose secrets are not `whsec_` secrets, or for a bad `timeoutMs`.
 * @see https://www.standardwebhooks.com/
 * @example
 * ```ts
 * scim.events.subscribe(
 *   'webhooks',
 *   webhookSubscriber({ endpoint: { url: 'https://app.example.org/hooks/scim', secrets: [secret] } }),
 *   WEBHOOK_RETRY,
 * );
 * ```
 */
export function webhookSubscriber(options: WebhookSubscriberOptions): WebhookHandler {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)
    throw new ScimConfigError(
      `webhookSubscriber: timeoutMs must be a whole number from 1 to ${MAX_TIMEOUT_MS} (got ${String(timeoutMs)}).`,
    );
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const endpoint = options.endpoint;
  const where = 'webhookSubscriber: endpoint';
  const resolve: (tenant: string) => Promise<CheckedWebhookEndpoint | undefined> =
    typeof endpoint === 'function' ? perTenant(endpoint, where) : fixed(endpoint, where);

  return async (event, { signal }) => {
    const target = await resolve(event.tenant);
    if (target === undefined) return;
    const body = webhookBody(event);
    const headers = await target.signer.sign({
      id: event.id,
      timestamp: Math.floor(Date.now() / 1000),
      body,
    });
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    const origin = target.url.origin;
    let response: Response;
    try {
      response = await send(target.url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
        redirect: 'manual',
        signal: both,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timeout.aborted)
        throw new WebhookDeliveryError(`${origin} did not answer within ${timeoutMs} ms.`, {
          cause: error,
        });
      const reason = error instanceof Error ? (error.cause ?? error) : error;
      throw new WebhookDeliveryError(`${origin} could not be reached: ${describeReason(reason)}.`, {
        cause: error,
      });
    }
    const { status } = response;
    if (status >= 200 && status < 300 && response.type !== 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined);
      throw new WebhookDeliveryError(
        `${origin} answered ${status || 'a redirect'}: redirects are not followed, point the webhook at the final URL.`,
        { status },
      );
    }
    throw new WebhookDeliveryError(`${origin} answered ${status}${await excerpt(response)}.`, {
      status,
    });
  };
}

/** The JSON body of a webhook: the event as the feed lists it. */
function webhookBody(event: DirectoryEvent & { readonly cursor?: string }): string {
  const { id, type, tenant, occurredAt, cursor, data } = event;
  return JSON.stringify(
    cursor === undefined
      ? { id, type, tenant, occurredAt, data }
      : { id, type, tenant, occurredAt, cursor, data },
  );
}

function fixed(endpoint: WebhookEndpoint, where: string) {
  const checked = Promise.resolve(checkWebhookEndpoint(endpoint, where));
  return () => checked;
}

function perTenant(
  endpointOf: (
    tenant: string,
  ) => WebhookEndpoint | undefined | Promise<WebhookEndpoint | undefined>,
  where: string,
) {
  // Keyed by the object the host returns: the same endpoint object is checked, and its keys
  // imported, once; a new object (new URL or secrets) is checked afresh.
  const checked = new WeakMap<WebhookEndpoint, CheckedWebhookEndpoint>();
  return async (tenant: string) => {
    const endpoint = await endpointOf(tenant);
    if (endpoint === undefined) return undefined;
    let found = checked.get(endpoint);
    if (found === undefined) {
      found = checkWebhookEndpoint(endpoint, `${where} of tenant "${tenant}"`);
      checked.set(endpoint, found);
    }
    return found;
  };
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) {
    const code = (reason as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${reason.message})` : reason.message;
  }
  return String(reason);
}

/** The start of a refusing answer's body, as one printable line, read within a bound. */
async function excerpt(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // The body is only quoted: an answer cut short still fails the attempt by its status.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  const text = new TextDecoder()
    .decode(bytes.subarray(0, EXCERPT_BYTES))
    .replace(/\p{Cc}+/gu, ' ')
    .trim();
  return text === '' ? '' : `: ${text}`;
}
