/** What the console counts for one value, object member or array item beyond its text. */
const SLOT_BYTES = 16;

/**
 * Estimates what a JSON-like value holds in memory, in bytes (its text, plus a little for each
 * value, member and item), or undefined once that passes `limit`: the walk stops there, so a
 * huge value costs no more to measure than a value of `limit` bytes.
 */
export function sizeWithin(value: unknown, limit: number): number | undefined {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    size += SLOT_BYTES;
    if (typeof v === 'string') size += v.length;
    else if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (typeof v === 'object' && v !== null)
      for (const key in v) {
        size += key.length + SLOT_BYTES;
        stack.push((v as Record<string, unknown>)[key]);
      }
    if (size > limit) return undefined;
  }
  return size;
}
