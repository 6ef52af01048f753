import type { JsonSchema, OpenApiDocument } from '../../../src/openapi/index.js';
import { EVENTS_PATH, FEED_LIMITS } from './events-route.js';

const JSON_TYPE = 'application/json';
const errorBody = { $ref: '#/components/schemas/Error' };

/** A directory event as the feed lists it (docs/events.md). */
const eventSchema: JsonSchema = {
  type: 'object',
  description: 'A directory event: one change the IdP made, recorded with the write.',
  required: ['id', 'type', 'tenant', 'occurredAt', 'data', 'cursor'],
  properties: {
    id: { type: 'string', description: 'Unique and opaque; the idempotency key of the event.' },
    type: {
      type: 'string',
      description: 'What happened: `user.created`, `group.member_removed`, `class.updated`, ...',
    },
    tenant: { type: 'string', description: 'The tenant the change happened in.' },
    occurredAt: { type: 'string', format: 'date-time', description: 'When the write happened.' },
    data: {
      type: 'object',
      required: ['id', 'resourceType'],
      properties: {
        id: { type: 'string', description: 'The resource (for member events, the group).' },
        resourceType: { type: 'string' },
        resource: {
          type: 'object',
          description: 'The resource after the write (before it, for a delete).',
        },
        changed: { type: 'array', items: { type: 'string' } },
        groupId: { type: 'string' },
        userId: { type: 'string' },
        memberType: { type: 'string', enum: ['User', 'Group'] },
      },
    },
    cursor: { type: 'string', description: 'The position to pass as `after` to read on.' },
  },
};

const pageSchema: JsonSchema = {
  type: 'object',
  required: ['data', 'next'],
  properties: {
    data: { type: 'array', items: { $ref: '#/components/schemas/DirectoryEvent' } },
    next: {
      type: ['string', 'null'],
      description:
        "The `after` of the next request: the last event's cursor, or the `after` given when " +
        'there were none; `null` only while the tenant has no event and no `after` was given.',
    },
  },
};

const error = (description: string, headers?: Record<string, JsonSchema>): JsonSchema => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: { [JSON_TYPE]: { schema: errorBody } },
});

const feedOperation: JsonSchema = {
  operationId: 'listDirectoryEvents',
  summary: "Lists the key's tenant's directory events in commit order",
  description:
    'Poll with the last `next` as `after`: every later event comes exactly once, in commit ' +
    'order, including one whose transaction committed late. Events are kept for the retention ' +
    'period; see docs/events.md.',
  tags: ['Events'],
  parameters: [
    {
      name: 'after',
      in: 'query',
      description:
        'The `next` of an earlier answer, unchanged; omitted: from the oldest event kept. A ' +
        'cursor the log did not give answers 400 `invalidCursor`.',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,512}$' },
    },
    {
      name: 'limit',
      in: 'query',
      description: `Events per page, 1 to ${FEED_LIMITS.max} (default ${FEED_LIMITS.default}).`,
      schema: { type: 'integer', minimum: 1, maximum: FEED_LIMITS.max },
    },
    {
      name: 'types',
      in: 'query',
      description: 'Only events of these types, separated by commas (`user.created,user.deleted`).',
      schema: { type: 'string' },
    },
  ],
  responses: {
    200: {
      description: 'A page of events, oldest first.',
      content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/DirectoryEventPage' } } },
    },
    400: error(
      '`invalidCursor` for an `after` the log did not give, `invalidValue` for a bad `limit`, ' +
        '`types` or an unknown parameter.',
    ),
    401: error('Missing or unknown API key.', {
      'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' },
    }),
    429: error('The key has as many requests in flight as allowed.'),
    500: error('An unexpected fault; the detail carries no internals.'),
    501: error("The server's store keeps no event log."),
  },
};

/**
 * Adds the example server's event feed (`GET /api/v1/events`) to the SCIM service's OpenAPI
 * document: the feed lives beside the SCIM base path, so its path item names its own server
 * (`origin`, the server's public URL).
 */
export function withEventFeed(document: OpenApiDocument, origin: string): OpenApiDocument {
  return {
    ...document,
    tags: [
      ...document.tags,
      { name: 'Events', description: "The tenant's directory events (docs/events.md)." },
    ],
    paths: {
      ...document.paths,
      [EVENTS_PATH]: { servers: [{ url: origin.replace(/\/+$/, '') }], get: feedOperation },
    },
    components: {
      ...document.components,
      schemas: {
        ...document.components.schemas,
        DirectoryEvent: eventSchema,
        DirectoryEventPage: pageSchema,
      },
    },
  };
}
