import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isScimError,
  ScimConfigError,
  ScimError,
  scimErrors,
  type ApiKeyVerifier,
} from '../../../src/index.js';
import type { DirectoryEvents, FeedQuery } from './directory-events.js';

/** Where the example server serves each tenant's event feed. */
export const EVENTS_PATH = '/api/v1/events';

/**
 * Events per page when the client names no `limit`, and the most it may ask for: the most
 * `scim.events.list` returns in one page, so every `limit` the feed takes reaches the library.
 */
export const FEED_LIMITS = { default: 50, max: 1000 } as const;

const PARAMETERS: ReadonlySet<string> = new Set(['after', 'limit', 'types']);
// A cursor is opaque to the client but made of URL-safe characters; anything else is no cursor.
const CURSOR = /^[A-Za-z0-9._~-]{1,512}$/;
const EVENT_TYPE = /^[A-Za-z0-9_-]{1,128}\.[a-z_]{1,64}$/;
const MAX_TYPES = 32;

/** What the feed route needs. */
export interface EventsRouteOptions {
  /** Turns the bearer key into the tenant, as for SCIM requests. */
  readonly verifier: ApiKeyVerifier;
  /** The events; undefined when the store keeps no event log (the feed answers 501). */
  readonly events: DirectoryEvents | undefined;
  /** Reports a failure that answered 500. */
  readonly onError: (error: unknown) => void;
}

function answer(res: ServerResponse, status: number, body: unknown, extra = {}): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
      ...extra,
    })
    .end(text);
}

const noLog = () => new ScimError(501, "This server's store keeps no event log.");

function refuse(res: ServerResponse, error: ScimError): void {
  answer(res, error.status, error, error.headers);
}

/** Reads the query, or the error that says what is wrong with it. */
export function readFeedQuery(params: URLSearchParams): FeedQuery | ScimError {
  for (const name of new Set(params.keys())) {
    if (!PARAMETERS.has(name))
      return scimErrors.invalidValue(
        `Unknown query parameter "${name.slice(0, 64)}": the feed reads after, limit and types.`,
      );
    if (params.getAll(name).length > 1)
      return scimErrors.invalidValue(`The query parameter "${name}" is given more than once.`);
  }
  const limitText = params.get('limit');
  let limit: number = FEED_LIMITS.default;
  if (limitText !== null) {
    limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= FEED_LIMITS.max))
      return scimErrors.invalidValue(
        `limit must be a whole number from 1 to ${FEED_LIMITS.max} (got "${limitText.slice(0, 32)}").`,
      );
  }
  const after = params.get('after');
  if (after !== null && !CURSOR.test(after))
    return scimErrors.invalidCursor(
      'after must be the "next" of an earlier answer, sent unchanged (or leave it out to start from the oldest event kept).',
    );
  const typesText = params.get('types');
  const types = typesText === null ? undefined : typesText.split(',').map((t) => t.trim());
  if (types !== undefined && (types.length > MAX_TYPES || !types.every((t) => EVENT_TYPE.test(t))))
    return scimErrors.invalidValue(
      `types must be up to ${MAX_TYPES} event types separated by commas, such as user.created,user.deactivated.`,
    );
  return {
    limit,
    ...(after === null ? {} : { after }),
    ...(types === undefined ? {} : { types }),
  };
}

/**
 * The event feed, `GET /api/v1/events?after=&limit=&types=`: the tenant of the bearer key's
 * events in commit order, as `{"data": [events], "next": cursor}`. A client polls with the last
 * `next` it saw as `after` and never misses an event; `next` is `null` only while the tenant has
 * no event at all and no `after` was given. A bad `limit`, `after` or `types` answers 400, no
 * key or an unknown one 401, both with a JSON error body in the SCIM error shape.
 */
export function eventsRoute(options: EventsRouteOptions) {
  const { verifier, events, onError } = options;
  async function serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refuse(
        res,
        new ScimError(405, 'The event feed is read with GET.', { headers: { allow: 'GET, HEAD' } }),
      );
    const key = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const tenant = key === undefined ? null : await verifier.verify(key);
    if (tenant === null)
      return refuse(
        res,
        new ScimError(
          401,
          key === undefined
            ? 'The event feed needs the tenant\'s API key: "Authorization: Bearer <key>".'
            : 'The API key is not valid.',
          { headers: { 'www-authenticate': 'Bearer' } },
        ),
      );
    if (events === undefined) return refuse(res, noLog());
    const query = readFeedQuery(url.searchParams);
    if (query instanceof ScimError) return refuse(res, query);
    let page;
    try {
      page = await events.list(tenant.id, query);
    } catch (error) {
      // The store judges a cursor that looks right but is not one of its own.
      if (isScimError(error) && error.status < 500) return refuse(res, error);
      if (error instanceof ScimConfigError) return refuse(res, noLog());
      throw error;
    }
    answer(res, 200, { data: page.events, next: page.next ?? null });
  }
  return (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    serve(req, res, url).catch((error: unknown) => {
      onError(error);
      if (res.headersSent) return void res.destroy();
      refuse(res, new ScimError(500, 'The event feed failed; the error is in the server log.'));
    });
  };
}
