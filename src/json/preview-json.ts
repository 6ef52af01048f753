import { isJsonObject } from './json-value.js';

/** How many characters of a client's input an error detail quotes at most. */
export const MAX_PREVIEW_LENGTH = 100;

/**
 * Writes the start of a value as JSON, at most `max` characters (then `…`), for an error
 * detail. Unlike `JSON.stringify(value).slice(0, max)` it stops as soon as it has enough, so a
 * 1 MiB input costs no more than a small one, and it never throws (a `bigint` a host's body
 * parser produced is written as a number).
 */
export function previewJson(value: unknown, max = MAX_PREVIEW_LENGTH): string {
  const out: string[] = [];
  let length = 0;
  // Each call adds at least one character, so the recursion is at most `max` deep.
  const add = (text: string): boolean => {
    out.push(text);
    length += text.length;
    return length > max;
  };
  const write = (v: unknown): boolean => {
    if (typeof v === 'string') return add(JSON.stringify(v.slice(0, max + 1)));
    if (Array.isArray(v)) {
      if (add('[')) return true;
      for (let i = 0; i < v.length; i++) if ((i > 0 && add(',')) || write(v[i])) return true;
      return add(']');
    }
    if (isJsonObject(v)) {
      let first = true;
      if (add('{')) return true;
      for (const key in v) {
        if (!first && add(',')) return true;
        first = false;
        if (add(`${JSON.stringify(key.slice(0, max + 1))}:`) || write(v[key])) return true;
      }
      return add('}');
    }
    return add(typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? String(v)));
  };
  write(value);
  const text = out.join('');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
