import type { DirectoryEvent } from '../../contracts/event-log.js';
import { directoryEvents } from '../events/directory-events.js';
import type { ScimEvent } from '../events/types.js';
import type { EventRecorder } from './resource-kind.js';

/**
 * The events of one write, listed once: the store calls `record` with what it did, to record
 * the directory events in the write's own step, and the events it listed are those the
 * in-process listeners and the durable subscribers then hear of. A kind that reports another
 * `done` than it recorded (a group's write, whose store tells its memberships) has its events
 * listed again from what it reported.
 */
export class WriteEvents<D> {
  #done: D | undefined;
  #events: ScimEvent[] | undefined;

  constructor(
    private readonly list: (done: D) => ScimEvent[],
    private readonly resourceType: string,
  ) {}

  /** Lists the directory events of `done`, for the store to record with the write. */
  readonly record: EventRecorder<D> = (done): readonly DirectoryEvent[] => {
    const events = this.list(done);
    this.#done = done;
    this.#events = events;
    return directoryEvents(events, this.resourceType, null);
  };

  /** The events `record` listed for this very `done`, if it did. */
  of(done: D): readonly ScimEvent[] | undefined {
    return this.#done === done ? this.#events : undefined;
  }
}
