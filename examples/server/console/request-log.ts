import type { RequestCompletedEvent } from '../../../src/index.js';
import { DEFAULT_CONSOLE_LIMITS, type ConsoleLimits } from './console-limits.js';
import { requestEntry, type RequestEntry } from './request-entry.js';

/** How many requests the console keeps per tenant at most; older ones are dropped. */
export const REQUEST_HISTORY = 500;

/**
 * Keeps the last SCIM requests of each tenant, newest first, as bounded copies
 * ({@link requestEntry}): at most {@link REQUEST_HISTORY} and `limits.tenantBytes` per tenant,
 * and `limits.totalBytes` for all tenants, dropping the oldest first. Requests without a tenant
 * (not authenticated) are not kept: no tenant may see them.
 */
export class RequestLog {
  // Oldest first, so that dropping the oldest is a shift; `list` turns it around.
  readonly #byTenant = new Map<string, { entries: RequestEntry[]; bytes: number }>();
  #seq = 0;
  #bytes = 0;

  constructor(
    private readonly limits: ConsoleLimits = DEFAULT_CONSOLE_LIMITS,
    private readonly history = REQUEST_HISTORY,
  ) {}

  /** The bytes every kept entry holds together. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Records a request; returns false when it has no tenant and was not kept. */
  record(event: RequestCompletedEvent): boolean {
    if (event.tenant === undefined) return false;
    let log = this.#byTenant.get(event.tenant);
    if (!log) this.#byTenant.set(event.tenant, (log = { entries: [], bytes: 0 }));
    const entry = requestEntry(++this.#seq, event, this.limits);
    log.entries.push(entry);
    log.bytes += entry.bytes;
    this.#bytes += entry.bytes;
    while (log.entries.length > this.history || log.bytes > this.limits.tenantBytes)
      this.#dropOldest(event.tenant);
    while (this.#bytes > this.limits.totalBytes) {
      const oldest = this.#oldestTenant();
      if (oldest === undefined) break;
      this.#dropOldest(oldest);
    }
    return true;
  }

  /** The tenant's requests, newest first. */
  list(tenant: string): readonly RequestEntry[] {
    return [...(this.#byTenant.get(tenant)?.entries ?? [])].reverse();
  }

  /** The newest entry's number for the tenant, 0 when none: it changes with every record. */
  latest(tenant: string): number {
    return this.#byTenant.get(tenant)?.entries.at(-1)?.seq ?? 0;
  }

  // The tenant whose oldest entry is the oldest of all: a scan over tenants, which are few
  // (one per configured API key's tenant).
  #oldestTenant(): string | undefined {
    let found: string | undefined;
    let seq = Infinity;
    for (const [tenant, log] of this.#byTenant) {
      const first = log.entries[0];
      if (first !== undefined && first.seq < seq) [found, seq] = [tenant, first.seq];
    }
    return found;
  }

  #dropOldest(tenant: string): void {
    const log = this.#byTenant.get(tenant);
    const dropped = log?.entries.shift();
    if (!log || !dropped) return;
    log.bytes -= dropped.bytes;
    this.#bytes -= dropped.bytes;
    if (log.entries.length === 0) this.#byTenant.delete(tenant);
  }
}
