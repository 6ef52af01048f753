import { scimErrors } from '../errors/index.js';
import { previewJson } from '../json/preview-json.js';

/**
 * The 400 a group store answers for a member id that is not a user or a group of the tenant:
 * another tenant's id is as unknown as a made-up one, and the detail says no more than that.
 *
 * @internal
 */
export function unknownMember(id: string) {
  return scimErrors.invalidValue(
    `Member ${previewJson(id)} is not a user or group of this tenant.`,
  );
}

/**
 * The 400 a group store answers when adding a group as a member would make a group contain
 * itself, directly or through nested groups.
 *
 * @internal
 */
export function memberCycle(id: string) {
  return scimErrors.invalidValue(
    `Group ${previewJson(id)} cannot be a member here: the group would contain itself.`,
  );
}

/**
 * Keeps the first of each member id, in the order given: a member sent twice is one
 * membership.
 *
 * @internal
 */
export function distinctBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}
