import type { RequestCompletedEvent } from '../../../src/index.js';

/** How many requests the console keeps per tenant; older ones are dropped. */
export const REQUEST_HISTORY = 500;

/** One logged request and its place in the tenant's history. */
export interface LoggedRequest {
  readonly seq: number;
  readonly event: RequestCompletedEvent;
}

/**
 * Keeps the last {@link REQUEST_HISTORY} SCIM requests of each tenant, newest first. Requests
 * without a tenant (not authenticated) are not kept: no tenant may see them. The event's body
 * and normalisations are built only when the console shows them.
 */
export class RequestLog {
  readonly #byTenant = new Map<string, LoggedRequest[]>();
  #seq = 0;

  constructor(private readonly limit = REQUEST_HISTORY) {}

  /** Records a request; returns false when it has no tenant and was not kept. */
  record(event: RequestCompletedEvent): boolean {
    if (event.tenant === undefined) return false;
    let list = this.#byTenant.get(event.tenant);
    if (!list) this.#byTenant.set(event.tenant, (list = []));
    list.unshift({ seq: ++this.#seq, event });
    if (list.length > this.limit) list.length = this.limit;
    return true;
  }

  /** The tenant's requests, newest first. */
  list(tenant: string): readonly LoggedRequest[] {
    return this.#byTenant.get(tenant) ?? [];
  }
}
