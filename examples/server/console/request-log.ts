import type { RequestCompletedEvent } from '../../../src/index.js';
import { DEFAULT_CONSOLE_LIMITS, type ConsoleLimits } from './console-limits.js';
import { ENTRY_OVERHEAD_BYTES, requestEntry, type RequestEntry } from './request-entry.js';
import { sizeWithin } from './size-within.js';

/** How many requests the console keeps per tenant at most; older ones are dropped. */
export const REQUEST_HISTORY = 500;

/**
 * How many times its size a small request body costs while its event is kept: the bytes, and
 * the parsed and redacted copies the event caches once the console has shown it.
 */
const KEPT_BODY_FACTOR = 4;

/** Methods whose event holds no written resource: nothing is written, or only removed. */
const READS_NOTHING_BACK: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE']);

/** One logged request: what the log filters on, what it holds, and its view. */
export interface LoggedRequest {
  readonly seq: number;
  readonly status: number;
  readonly path: string;
  /** The id of the user the request wrote, for the log's user filter. */
  readonly userId: string | undefined;
  /** What the entry holds, in bytes (estimated): what the log's budgets count. */
  readonly bytes: number;
  /** What the console shows of the request, within the limits. */
  view(): RequestEntry;
}

// What keeping the event itself costs, when it is small enough to keep: a body of at most
// `bodyBytes`, and a written user (if any) of at most that much before and after. Such an event
// is kept as it is and viewed when shown, which costs nothing per request; a larger one, a
// write of another resource type (whose resource the event holds but does not show), or a body
// already parsed by a host is copied at once, within the limits (undefined here).
function keptWeight(event: RequestCompletedEvent, limits: ConsoleLimits): number | undefined {
  const body = event.bodyBytes;
  if (body === undefined || body > limits.bodyBytes) return undefined;
  const wroteOther =
    event.after === undefined && event.status < 300 && !READS_NOTHING_BACK.has(event.method);
  if (wroteOther) return undefined;
  let bytes = ENTRY_OVERHEAD_BYTES + event.path.length + body * KEPT_BODY_FACTOR;
  for (const user of [event.before, event.after]) {
    if (user === undefined) continue;
    const size = sizeWithin(user, limits.bodyBytes);
    if (size === undefined) return undefined;
    bytes += size;
  }
  return bytes;
}

// A small request: its event, viewed when shown. A class, not an object with a closure: one is
// made for every request.
class KeptRequest implements LoggedRequest {
  readonly status: number;
  readonly path: string;
  readonly userId: string | undefined;

  constructor(
    readonly seq: number,
    readonly bytes: number,
    private readonly event: RequestCompletedEvent,
    private readonly limits: ConsoleLimits,
  ) {
    this.status = event.status;
    this.path = event.path;
    this.userId = event.after?.id ?? event.before?.id;
  }

  view(): RequestEntry {
    return requestEntry(this.seq, this.event, this.limits);
  }
}

// A large request: the bounded copy made when it was recorded; the event is let go.
class CopiedRequest implements LoggedRequest {
  readonly status: number;
  readonly path: string;
  readonly bytes: number;

  constructor(
    readonly seq: number,
    readonly userId: string | undefined,
    private readonly entry: RequestEntry,
  ) {
    this.status = entry.status;
    this.path = entry.path;
    this.bytes = entry.bytes;
  }

  view(): RequestEntry {
    return this.entry;
  }
}

function logged(seq: number, event: RequestCompletedEvent, limits: ConsoleLimits): LoggedRequest {
  const kept = keptWeight(event, limits);
  if (kept !== undefined) return new KeptRequest(seq, kept, event, limits);
  return new CopiedRequest(
    seq,
    event.after?.id ?? event.before?.id,
    requestEntry(seq, event, limits),
  );
}

/**
 * Keeps the last SCIM requests of each tenant, newest first: a small one as its event, viewed
 * when shown, a large one as a bounded copy ({@link requestEntry}); at most
 * {@link REQUEST_HISTORY} and `limits.tenantBytes` per tenant, and `limits.totalBytes` for all
 * tenants, dropping the oldest first. Requests without a tenant (not authenticated) are not
 * kept: no tenant may see them.
 */
export class RequestLog {
  // Oldest first, so that dropping the oldest is a shift; `list` turns it around.
  readonly #byTenant = new Map<string, { entries: LoggedRequest[]; bytes: number }>();
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
    const entry = logged(++this.#seq, event, this.limits);
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
  list(tenant: string): readonly LoggedRequest[] {
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
