import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { CompiledResourceType } from './resource-type.js';

type Json = Record<string, unknown>;

/** How many values one multi-valued attribute may hold by default; see {@link checkValueCounts}. */
export const DEFAULT_MAX_ATTRIBUTE_VALUES = 10_000;

/**
 * Checks that no multi-valued attribute of a resource about to be written holds more than `max`
 * values. An attribute that already held more (stored before the limit was lowered) may keep
 * them and shrink, but not grow, so an IdP can still update or clean up such a user.
 *
 * @param next The attributes to write (core attributes at the top level, extensions under their
 *   URN).
 * @param type The compiled resource type (its schemas, core first).
 * @param current The stored resource a PUT or PATCH replaces; none for a create.
 * @throws ScimError 400 `invalidValue` naming the attribute, its count and the limit.
 */
export function checkValueCounts(
  next: Readonly<Json>,
  type: CompiledResourceType,
  max: number,
  current?: Readonly<Json>,
): void {
  for (const [schema, attr] of type.multiValued) {
    const core = schema === type.core;
    const values = core ? next : next[schema.id];
    if (!isJsonObject(values)) continue;
    const count = countOf(values[attr.name]);
    if (count <= max) continue;
    const stored = core ? current : current?.[schema.id];
    if (count <= countOf(isJsonObject(stored) ? stored[attr.name] : undefined)) continue;
    const name = core ? attr.name : `${schema.id}:${attr.name}`;
    // invalidValue, not tooMany: RFC 7644 §3.12 keeps tooMany for filters that yield too
    // many results; here the value sent is more than this server stores.
    throw scimErrors.invalidValue(
      `"${name}" would hold ${count.toLocaleString('en-US')} values; this server keeps at most ` +
        `${max.toLocaleString('en-US')} per attribute (maxAttributeValues).`,
    );
  }
}

function countOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}
