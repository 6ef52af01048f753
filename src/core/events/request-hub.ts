import type { FiredRule, RuleTrace } from '../../schema/dialect-rules.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { etagMatches } from '../http/etag.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { ScimRequestHead, ScimResponse } from '../types.js';
import type { EventHub } from './event-hub.js';
import { explainNormalisations } from './explain-normalisations.js';
import { redactWriteOnly, writeOnlyNames } from './redact-write-only.js';
import type { Normalisation, RequestCompletedEvent, ScimEvent } from './types.js';

/** One request being observed: when it began, and its tenant once authenticated. */
export interface RequestTrace {
  readonly head: ScimRequestHead;
  readonly started: number;
  tenant?: string;
  /** The lifecycle events of the tenant emitted while the handler ran. */
  seen?: ScimEvent[];
  stop?: () => void;
  /** The dialect rules the engines reported as they fired (see {@link RequestHub.collect}). */
  fired?: FiredRule[];
  /** The resource type the request was served with, under its tenant's profile. */
  type?: CompiledResourceType;
}

const decoder = new TextDecoder();

// The size of a body as the adapter handed it: its bytes, or its text's UTF-8 length (counted,
// not encoded, so a large text is not copied to be measured).
function bytesOf(body: unknown): number | undefined {
  if (body === undefined) return 0;
  if (body instanceof Uint8Array) return body.byteLength;
  if (typeof body !== 'string') return undefined;
  let bytes = body.length;
  for (let i = 0; i < body.length; i++) {
    const unit = body.charCodeAt(i);
    // Two bytes for U+0080..U+07FF, three for the rest of the BMP, four for a surrogate pair
    // (two units of three counted as one character of four: the pair adds one unit each).
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

// The body as the client sent it: parsed JSON, or the raw text when it is not JSON.
function parsedBody(body: unknown): unknown {
  const text =
    typeof body === 'string' ? body : body instanceof Uint8Array ? decoder.decode(body) : body;
  if (typeof text !== 'string') return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

// The request target as received: the path, and the query (parsed parameters, when the adapter
// gave them so, written back as a query string).
function target(head: ScimRequestHead): string {
  const { path, query } = head;
  if (query === undefined) return path;
  let text: string;
  if (typeof query === 'string') text = query.replace(/^\?/, '');
  else if (query instanceof URLSearchParams) text = query.toString();
  else {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (typeof value === 'string') params.append(name, value);
      else for (const v of value ?? []) params.append(name, v);
    }
    text = params.toString();
  }
  return text === '' ? path : `${path}?${text}`;
}

/** A resource as a lifecycle event carries it: a user, a group, a host type's resource. */
type Written = { readonly id: string; readonly meta: { readonly version: string } };

// What one lifecycle event wrote, whatever the resource type: the resource as created, or as
// it was before and after an update; nothing for an event that writes no resource body.
function writeOf(event: ScimEvent): { before?: Written; after: Written } | undefined {
  switch (event.type) {
    case 'user.created':
      return { after: event.user };
    case 'group.created':
      return { after: event.group };
    case 'resource.created':
      return { after: event.resource as Written };
    case 'user.updated':
    case 'group.updated':
      return { before: event.before, after: event.after };
    case 'resource.updated':
      return { before: event.before as Written, after: event.after as Written };
    default:
      return undefined;
  }
}

// The resource this request wrote, found among the lifecycle events of its tenant: a created
// one is the one the `Location` names, an updated one the one the request names (the route's
// id, or the `Location` of a `/Me` answer) whose version the `ETag` carries, so a concurrent
// request's write is never taken for this one's.
function written(
  seen: readonly ScimEvent[],
  response: ScimResponse,
  id: string,
): { before?: Written | undefined; after?: Written | undefined; user?: boolean } {
  const { location, etag } = response.headers;
  for (const event of seen) {
    const write = writeOf(event);
    if (write === undefined) continue;
    const { after } = write;
    const named = location?.endsWith(`/${after.id}`) === true;
    const found =
      write.before === undefined
        ? named
        : (after.id === id || named) && etag !== undefined && etagMatches(etag, after.meta.version);
    if (found) return { ...write, user: event.type.startsWith('user.') };
  }
  return {};
}

// The value rules (`stringBooleans`, `managerString`, `jsonEncodedValues`, and
// `managerEmptyString` in a POST or PUT body) fire inside the compiled value readers, shared by
// every request: they are explained from the stored result (`normalisations`), the others
// reported where they fire. One list, in request order for each.
const VALUE_RULES: ReadonlySet<string> = new Set([
  'stringBooleans',
  'managerString',
  'jsonEncodedValues',
  'managerEmptyString',
]);

function rulesFired(
  fired: readonly FiredRule[] | undefined,
  normalisations: readonly Normalisation[],
): FiredRule[] {
  const list = [...(fired ?? [])];
  for (const n of normalisations) {
    if (VALUE_RULES.has(n.rule))
      list.push({
        rule: n.rule as FiredRule['rule'],
        where: n.path,
        received: n.received,
        became: n.stored,
      });
  }
  return list;
}

// A class, not an object literal with getters: it is built for every request while someone
// listens, and its members that take work (`body`, `normalisations`) run only when read.
class CompletedRequest implements RequestCompletedEvent {
  readonly type = 'request.completed';
  readonly tenant: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly bodyBytes: number | undefined;
  readonly before: ScimUser | undefined;
  readonly after: ScimUser | undefined;
  /** The resource the request wrote, of any type: what `normalisations` compares with. */
  readonly #written: Written | undefined;
  readonly #date: Date;
  readonly #trace: RequestTrace;
  #received: { value: unknown } | undefined;
  #redacted: { value: unknown } | undefined;
  #normalisations: Normalisation[] | undefined;
  #rulesFired: FiredRule[] | undefined;
  /** The error body answered, kept as text and read only when asked for. */
  readonly #errorBody: string | undefined;

  constructor(
    trace: RequestTrace,
    response: ScimResponse,
    date: Date,
    private readonly raw: unknown,
    write: ReturnType<typeof written>,
    private readonly hub: {
      readonly type: CompiledResourceType;
      readonly secrets: ReadonlySet<string>;
    },
  ) {
    this.#trace = trace;
    this.tenant = trace.tenant;
    this.method = trace.head.method.toUpperCase();
    this.path = target(trace.head);
    this.status = response.status;
    this.latencyMs = performance.now() - trace.started;
    this.bodyBytes = bytesOf(raw);
    this.#errorBody = response.status >= 400 ? response.body : undefined;
    this.#date = date;
    this.#written = write.after;
    // `before` and `after` are the user's (the event's public shape); any type is explained.
    this.before = write.user ? (write.before as ScimUser | undefined) : undefined;
    this.after = write.user ? (write.after as ScimUser | undefined) : undefined;
  }

  get at(): string {
    return this.#date.toISOString();
  }

  #parsed(): unknown {
    return (this.#received ??= { value: parsedBody(this.raw) }).value;
  }

  get body(): unknown {
    return (this.#redacted ??= { value: redactWriteOnly(this.#parsed(), this.hub.secrets) }).value;
  }

  get normalisations(): readonly Normalisation[] {
    return (this.#normalisations ??= explainNormalisations(
      this.method,
      this.#parsed(),
      this.#written,
      this.#trace.type ?? this.hub.type,
    ));
  }

  get error(): RequestCompletedEvent['error'] {
    if (this.#errorBody === undefined) return undefined;
    try {
      const { scimType, detail } = JSON.parse(this.#errorBody) as Record<string, unknown>;
      return typeof scimType === 'string'
        ? { scimType, detail: String(detail ?? '') }
        : { detail: String(detail ?? '') };
    } catch {
      return { detail: '' };
    }
  }

  get rulesFired(): readonly FiredRule[] {
    return (this.#rulesFired ??= rulesFired(this.#trace.fired, this.normalisations));
  }

  /** The event as plain data, for `JSON.stringify` (the raw body stays out). */
  toJSON(): RequestCompletedEvent {
    const { type, tenant, at, method, path, status, latencyMs, body, bodyBytes, before, after } =
      this;
    return {
      type,
      tenant,
      at,
      method,
      path,
      status,
      latencyMs,
      body,
      bodyBytes,
      error: this.error,
      before,
      after,
      normalisations: this.normalisations,
      rulesFired: this.rulesFired,
    };
  }
}

/**
 * Delivers `request.completed` events. Nothing is measured or kept while nobody listens: the
 * request pipeline asks {@link RequestHub.start} for a trace and gets none.
 */
export class RequestHub {
  readonly #listeners = new Set<(event: RequestCompletedEvent) => void>();
  /** The lower-case names of the writeOnly attributes, redacted from bodies. */
  readonly secrets: ReadonlySet<string>;

  /**
   * `served` lists every resource type served (the User's, the Group's, the host's): a body is
   * logged with the writeOnly attributes of all of them redacted, whatever its endpoint.
   */
  constructor(
    private readonly events: EventHub,
    readonly type: CompiledResourceType,
    private readonly now: () => Date,
    private readonly onError: (error: unknown) => void,
    served: readonly CompiledResourceType[] = [type],
  ) {
    this.secrets = writeOnlyNames(served.flatMap((t) => t.schemas));
  }

  /** Adds a listener; returns the function that removes it. */
  on(listener: (event: RequestCompletedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Begins observing a request, or returns undefined when nobody listens. */
  start(head: ScimRequestHead): RequestTrace | undefined {
    return this.#listeners.size === 0 ? undefined : { head, started: performance.now() };
  }

  /**
   * Returns the trace the engines report each dialect rule to as it fires, kept with the
   * request for its event; only asked for a request someone listens to.
   */
  collect(trace: RequestTrace): RuleTrace {
    const fired: FiredRule[] = [];
    trace.fired = fired;
    return (rule) => fired.push(rule);
  }

  /** Collects the tenant's lifecycle events while the handler of a write runs. */
  capture(trace: RequestTrace): void {
    const method = trace.head.method.toUpperCase();
    if (method === 'GET' || method === 'HEAD') return;
    const seen: ScimEvent[] = [];
    trace.seen = seen;
    trace.stop = this.events.on((event) => {
      if (event.tenant === trace.tenant) seen.push(event);
    });
  }

  /** Emits the event of a request that was answered with `response`. */
  finish(trace: RequestTrace, response: ScimResponse, body?: unknown, id = ''): void {
    trace.stop?.();
    const write = written(trace.seen ?? [], response, id);
    // The event keeps the trace (for the rules fired), not the lifecycle events it collected.
    delete trace.seen;
    const event = new CompletedRequest(trace, response, this.now(), body, write, this);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
