/**
 * The options a webhook subscription runs with: up to 20 attempts, the wait doubling from 10
 * seconds to at most 6 hours. Nominally about 53 hours from the first attempt to the last, so
 * that even with every wait cut in half by jitter an endpoint that is down for a day still
 * receives the event. Each attempt may run 20 seconds, above the webhook's own default
 * `timeoutMs` (15 s), so that the endpoint's slowness is what the attempt's error reports; raise
 * it with a longer webhook timeout. Pass it to `scim.events.subscribe` beside the handler that
 * `webhookSubscriber` builds.
 *
 * @see https://www.standardwebhooks.com/ (retry schedules spanning days, with backoff)
 * @example
 * ```ts
 * scim.events.subscribe('webhooks', webhookSubscriber({ endpoint }), WEBHOOK_RETRY);
 * ```
 */
export const WEBHOOK_RETRY = {
  timeoutMs: 20_000,
  maxAttempts: 20,
  backoff: { initialMs: 10_000, maxMs: 6 * 3_600_000 },
} as const;
