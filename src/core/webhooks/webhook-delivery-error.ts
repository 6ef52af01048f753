/**
 * Reports a webhook attempt that failed: the endpoint answered outside 2xx (a redirect
 * included), did not answer in time, or could not be reached. The subscriber that ran the
 * attempt records the message and retries later.
 */
export class WebhookDeliveryError extends Error {
  /** The endpoint's HTTP status, when it answered. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WebhookDeliveryError';
    this.status = options.status;
  }
}
