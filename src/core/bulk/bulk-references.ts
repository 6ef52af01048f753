/** What a value of a bulk operation starts with to stand for the id another one creates. */
export const BULK_ID_PREFIX = 'bulkId:';

/**
 * Collects the bulkIds a value refers to: every string that is exactly `bulkId:<id>`, at any
 * depth of `data`, or a segment of `path`.
 *
 * @see RFC 7644 §3.7.2
 */
export function referencedBulkIds(path: string, data: unknown): Set<string> {
  const found = new Set<string>();
  for (const segment of path.split('/'))
    if (segment.startsWith(BULK_ID_PREFIX)) found.add(segment.slice(BULK_ID_PREFIX.length));
  collect(data, found);
  return found;
}

function collect(value: unknown, found: Set<string>): void {
  if (typeof value === 'string') {
    if (value.startsWith(BULK_ID_PREFIX)) found.add(value.slice(BULK_ID_PREFIX.length));
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const key in value) collect((value as Record<string, unknown>)[key], found);
  }
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
