import type { RequestCompletedEvent } from '../../../src/index.js';
import { clipText, utf8Bytes, type ClippedText } from './clip-text.js';
import type { ConsoleLimits } from './console-limits.js';
import { diffResources } from './diff.js';

/** The most items of one list (changes, normalisations, rules fired) an entry keeps. */
export const MAX_LIST_ITEMS = 50;
/** Bytes kept of one value in those lists (a changed attribute's before or after, say). */
export const MAX_VALUE_BYTES = 512;
/** What an entry costs beyond its text: the objects that hold it. */
export const ENTRY_OVERHEAD_BYTES = 512;

/** One line of a list an entry keeps: a name, a place, and two values as clipped JSON. */
export interface EntryLine {
  readonly name: string;
  readonly path: string;
  readonly from: ClippedText;
  readonly to: ClippedText | undefined;
}

/** A list an entry keeps: its first lines and how many there were in all. */
export interface EntryList {
  readonly lines: readonly EntryLine[];
  readonly total: number;
}

/**
 * One SCIM request as the console keeps it: plain, bounded data copied from the request event
 * when it is recorded, so that no request body or resource outlives its request.
 */
export interface RequestEntry {
  readonly seq: number;
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  /** The SCIM error answered (400 and above): its `scimType` (or empty) and clipped `detail`. */
  readonly error: { readonly scimType: string; readonly detail: string } | undefined;
  /** The body as received, formatted JSON (writeOnly values redacted), clipped. */
  readonly body: ClippedText | undefined;
  readonly normalisations: EntryList;
  readonly rulesFired: EntryList;
  readonly changes: EntryList;
  /** Whether the request wrote a user (so an empty `changes` means "no attribute changed"). */
  readonly wroteUser: boolean;
  /** What the entry holds, in bytes: what the log's budgets count. */
  readonly bytes: number;
}

// An absent value shows as a dash: `undefined` is not JSON.
const json = (value: unknown, indent = 0): string => JSON.stringify(value, null, indent) ?? '—';

const value = (v: unknown): ClippedText => clipText(json(v), MAX_VALUE_BYTES);

function list<T>(items: readonly T[], line: (item: T) => EntryLine): EntryList {
  return { lines: items.slice(0, MAX_LIST_ITEMS).map(line), total: items.length };
}

function listBytes(entries: EntryList): number {
  let bytes = 0;
  for (const l of entries.lines)
    bytes +=
      utf8Bytes(l.name) + utf8Bytes(l.path) + utf8Bytes(l.from.text) + utf8Bytes(l.to?.text ?? '');
  return bytes;
}

/**
 * Copies what the console shows of a request, within `limits.bodyBytes` for the body and
 * {@link MAX_LIST_ITEMS} × {@link MAX_VALUE_BYTES} for each list.
 */
export function requestEntry(
  seq: number,
  event: RequestCompletedEvent,
  limits: ConsoleLimits,
): RequestEntry {
  const received = event.body;
  const body = received === undefined ? undefined : clipText(json(received, 2), limits.bodyBytes);
  const normalisations = list(event.normalisations, (n) => ({
    name: n.rule,
    path: n.path,
    from: value(n.received),
    to: value(n.stored),
  }));
  const rulesFired = list(event.rulesFired, (r) => ({
    name: r.rule,
    path: r.where,
    from: value(r.received),
    to: r.became === undefined ? undefined : value(r.became),
  }));
  const changes = list(diffResources(event.before, event.after), (c) => ({
    name: '',
    path: c.path,
    from: value(c.before),
    to: value(c.after),
  }));
  const path = clipText(event.path, MAX_VALUE_BYTES * 4).text;
  const answered = event.error;
  const error =
    answered === undefined
      ? undefined
      : {
          scimType: answered.scimType ?? '',
          detail: clipText(answered.detail, MAX_VALUE_BYTES).text,
        };
  const bytes =
    ENTRY_OVERHEAD_BYTES +
    utf8Bytes(path) +
    (error === undefined ? 0 : utf8Bytes(error.detail) + utf8Bytes(error.scimType)) +
    (body === undefined ? 0 : utf8Bytes(body.text)) +
    listBytes(normalisations) +
    listBytes(rulesFired) +
    listBytes(changes);
  return {
    seq,
    at: event.at,
    method: event.method,
    path,
    status: event.status,
    latencyMs: event.latencyMs,
    error,
    body,
    normalisations,
    rulesFired,
    changes,
    wroteUser: event.after !== undefined,
    bytes,
  };
}
