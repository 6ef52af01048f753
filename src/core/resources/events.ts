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
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (!ignore.has(key) && !jsonEqual(before[key], after[key])) changed.push(key);
  }
  return changed;
}
