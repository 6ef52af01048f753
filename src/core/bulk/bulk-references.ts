/** What a value of a bulk operation starts with to stand for the id another one creates. */
export const BULK_ID_PREFIX = 'bulkId:';

/** What an operation that refers to no bulkId refers to: one set, never written to. */
export const NONE: ReadonlySet<string> = new Set();

/**
 * Collects the bulkIds a value refers to: every string that is exactly `bulkId:<id>`, at any
 * depth of `data`, or a segment of `path`. Most operations refer to none: they get one shared
 * empty set, and no set is made for them.
 *
 * @see RFC 7644 §3.7.2
 */
export function referencedBulkIds(path: string, data: unknown): ReadonlySet<string> {
  let found: Set<string> | undefined;
  if (path.includes(BULK_ID_PREFIX)) {
    found = new Set();
    for (const segment of path.split('/'))
      if (segment.startsWith(BULK_ID_PREFIX)) found.add(segment.slice(BULK_ID_PREFIX.length));
  }
  return collect(data, found) ?? NONE;
}

// Adds the references in `value` to `found`, made on the first one.
function collect(value: unknown, found: Set<string> | undefined): Set<string> | undefined {
  if (typeof value === 'string') {
    if (value.startsWith(BULK_ID_PREFIX))
      (found ??= new Set()).add(value.slice(BULK_ID_PREFIX.length));
  } else if (Array.isArray(value)) {
    for (const item of value) found = collect(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const key in value) found = collect((value as Record<string, unknown>)[key], found);
  }
  return found;
}

/** Returns `value` with every `bulkId:<id>` string replaced by the id created for `<id>`. */
export function withCreatedIds(value: unknown, created: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(BULK_ID_PREFIX)) return value;
    return created.get(value.slice(BULK_ID_PREFIX.length)) ?? value;
  }
  if (Array.isArray(value)) return value.map((item) => withCreatedIds(item, created));
  if (typeof value === 'object' && value !== null) {
    // fromEntries defines each member, so a `__proto__` member stays a member.
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, withCreatedIds(member, created)]),
    );
  }
  return value;
}

/** Returns `path` with every `bulkId:<id>` segment replaced by the (encoded) created id. */
export function pathWithCreatedIds(path: string, created: ReadonlyMap<string, string>): string {
  return path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(BULK_ID_PREFIX)) return segment;
      const id = created.get(segment.slice(BULK_ID_PREFIX.length));
      return id === undefined ? segment : encodeURIComponent(id);
    })
    .join('/');
}
