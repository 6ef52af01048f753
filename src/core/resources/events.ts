import { jsonEqual } from '../../json/json-value.js';
import type { EventHub } from '../events/event-hub.js';
import type { ScimEvent } from '../events/types.js';

/**
 * Emits the events of one committed write, in order; lists them only while someone listens, so
 * a write nobody hears of builds no event.
 */
export function emitEvents(hub: EventHub, list: () => readonly ScimEvent[]): void {
  if (!hub.active) return;
  for (const event of list()) hub.emit(event);
}

/** Lists the top-level attributes whose values differ between two versions of a resource. */
export function changedAttributes(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  ignore: ReadonlySet<string>,
): string[] {
  const changed: string[] = [];
  // Own data members of JSON objects: `for...in` sees exactly those, in order.
  for (const key in before) {
    if (!ignore.has(key) && !jsonEqual(before[key], after[key])) changed.push(key);
  }
  for (const key in after) {
    if (!Object.hasOwn(before, key) && !ignore.has(key) && !jsonEqual(before[key], after[key]))
      changed.push(key);
  }
  return changed;
}
