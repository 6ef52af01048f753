// A stand-in for the library's directory events (`scim.events.list` and `subscribe`, and the
// store's delivery attempts) for the example server's tests: an in-memory log filled from the
// in-process `scim.on` notifications, and subscribers that deliver each event in order,
// retrying a failed attempt at once, up to three attempts.
import type { DirectoryEvent, LoggedEvent } from '../../src/contracts/event-log.js';
import { scimErrors, type Scim, type ScimEvent } from '../../src/index.js';
import type {
  DeliveryAttempt,
  DirectoryEvents,
  EventHandler,
  SubscribeOptions,
} from '../../examples/server/events/directory-events.js';

const FAKE_ATTEMPTS = 3;

function directoryEvent(event: ScimEvent, id: string): DirectoryEvent {
  const base = { id, tenant: event.tenant, occurredAt: event.at };
  switch (event.type) {
    case 'user.created':
    case 'user.deactivated':
    case 'user.reactivated':
    case 'user.activated':
    case 'user.invited':
      return {
        ...base,
        type: event.type,
        data: { id: event.user.id, resourceType: 'User', resource: event.user },
      };
    case 'user.updated':
      return {
        ...base,
        type: event.type,
        data: {
          id: event.after.id,
          resourceType: 'User',
          resource: event.after,
          changed: event.changed,
        },
      };
    case 'user.deleted':
      return { ...base, type: event.type, data: { id: event.id, resourceType: 'User' } };
    case 'group.created':
      return {
        ...base,
        type: event.type,
        data: { id: event.group.id, resourceType: 'Group', resource: event.group },
      };
    case 'group.updated':
      return {
        ...base,
        type: event.type,
        data: {
          id: event.after.id,
          resourceType: 'Group',
          resource: event.after,
          changed: event.changed,
        },
      };
    case 'group.deleted':
      return { ...base, type: event.type, data: { id: event.id, resourceType: 'Group' } };
    case 'group.member_added':
    case 'group.member_removed':
      return {
        ...base,
        type: event.type,
        data: {
          id: event.groupId,
          resourceType: 'Group',
          groupId: event.groupId,
          userId: event.member.value,
        },
      };
    case 'resource.created':
      return {
        ...base,
        type: `${event.resourceType.toLowerCase()}.created`,
        data: { id: event.resource.id, resourceType: event.resourceType, resource: event.resource },
      };
    case 'resource.updated':
      return {
        ...base,
        type: `${event.resourceType.toLowerCase()}.updated`,
        data: {
          id: event.after.id,
          resourceType: event.resourceType,
          resource: event.after,
          changed: event.changed,
        },
      };
    case 'resource.deleted':
      return {
        ...base,
        type: `${event.resourceType.toLowerCase()}.deleted`,
        data: { id: event.id, resourceType: event.resourceType },
      };
  }
}

/** The fake, with a way to wait until every subscriber has handled every event. */
export interface FakeDirectoryEvents extends DirectoryEvents {
  readonly log: readonly LoggedEvent[];
  /** Each subscriber started, with the options it was given. */
  readonly subscribed: readonly { name: string; options: SubscribeOptions }[];
  /** Resolves once every subscriber has delivered or given up every event so far. */
  idle(): Promise<void>;
}

/** Builds the fake over a service's in-process notifications. */
export function fakeDirectoryEvents(scim: Scim): FakeDirectoryEvents {
  const log: LoggedEvent[] = [];
  const attempts: DeliveryAttempt[] = [];
  const subscribed: { name: string; options: SubscribeOptions }[] = [];
  const runners: { wake(): void; idle(): Promise<void> }[] = [];
  scim.on((event) => {
    const seq = log.length + 1;
    log.push({
      ...directoryEvent(event, `ev${String(seq).padStart(8, '0')}`),
      cursor: String(seq),
    });
    for (const runner of runners) runner.wake();
  });

  function subscriber(name: string, handler: EventHandler) {
    let delivered = 0;
    let stopped = false;
    let running: Promise<void> = Promise.resolve();
    async function run(): Promise<void> {
      while (!stopped && delivered < log.length) {
        const event = log[delivered] as LoggedEvent;
        for (let attempt = 1; attempt <= FAKE_ATTEMPTS; attempt++) {
          try {
            await handler(event, { signal: new AbortController().signal, attempt });
            attempts.push(record(name, event, attempt, 'ok'));
            break;
          } catch (error) {
            const status = attempt === FAKE_ATTEMPTS ? 'dead' : 'failed';
            attempts.push(record(name, event, attempt, status, String((error as Error).message)));
          }
        }
        delivered++;
      }
    }
    return {
      wake: () => void (running = running.then(run)),
      idle: () => running,
      stop: async () => {
        stopped = true;
        await running;
      },
    };
  }

  return {
    log,
    subscribed,
    async list(tenant, { after, limit, types }) {
      if (after !== undefined && !/^[0-9]+$/.test(after))
        throw scimErrors.invalidCursor('This cursor is not one of the log.');
      const from = after === undefined ? 0 : Number(after);
      const events = log
        .slice(from)
        .filter((e) => e.tenant === tenant && (types === undefined || types.includes(e.type)))
        .slice(0, limit);
      return { events, next: events.at(-1)?.cursor ?? after };
    },
    subscribe(name, handler, options) {
      subscribed.push({ name, options });
      const runner = subscriber(name, handler);
      runners.push(runner);
      runner.wake();
      return { stop: runner.stop };
    },
    async attempts({ tenant, eventId, limit }) {
      return attempts
        .filter((a) => a.tenant === tenant && (eventId === undefined || a.eventId === eventId))
        .reverse()
        .slice(0, limit);
    },
    async idle() {
      await Promise.all(runners.map((r) => r.idle()));
    },
  };
}

function record(
  subscriber: string,
  event: LoggedEvent,
  attempt: number,
  status: DeliveryAttempt['status'],
  error?: string,
): DeliveryAttempt {
  return {
    subscriber,
    tenant: event.tenant,
    eventId: event.id,
    eventType: event.type,
    attempt,
    status,
    ...(error === undefined ? {} : { error }),
    at: new Date().toISOString(),
  };
}
