import type { ListPosition, ListSeek } from '../../contracts/user-store.js';
import { scimErrors } from '../../errors/index.js';
import type { ResourceContext } from './context.js';
import type { CursorBinding, CursorSettings, CursorState } from './cursor-token.js';
import type { ListParams } from './list-params.js';
import type { ResourcePage } from './resource-endpoint.js';

/** A validated cursor request: the store's keyset and the page size. */
export interface CursorRequest {
  readonly seek: ListSeek;
  readonly count: number;
  readonly binding: CursorBinding;
  readonly settings: CursorSettings;
}

/** The RFC 9865 members a cursor page adds to its ListResponse. */
export interface CursorMembers {
  nextCursor?: string;
  previousCursor?: string;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function bindingOf(context: ResourceContext, params: ListParams): CursorBinding {
  return {
    tenant: context.tenant.id,
    endpoint: context.endpoint.type.name,
    filter: params.filter,
    sortBy: params.sortBy?.trim(),
    sortOrder: params.sortOrder,
  };
}

/**
 * Reads the RFC 9865 `cursor` and `count` of a list request: an empty cursor asks for the first
 * page; any other must be a `nextCursor` or `previousCursor` this server gave for the same
 * tenant and query, younger than the cursor timeout, with the same `count`.
 *
 * @throws ScimError 400 `invalidCursor` (a cursor not made here for this query, or cursors not
 *   supported by the store), `expiredCursor`, `invalidCount` (above the maximum page size, or
 *   not the count the cursor was made with), `invalidValue` (`startIndex` sent too).
 * @see RFC 9865 §2
 */
export async function readCursor(
  context: ResourceContext,
  params: ListParams,
  cursor: string,
): Promise<CursorRequest> {
  const settings = context.config.cursors;
  if (!settings || context.endpoint.keysetPaging !== true) {
    throw scimErrors.invalidCursor(
      'This server does not support cursor paging (see /ServiceProviderConfig); page with ' +
        'startIndex and count.',
    );
  }
  if (params.startIndexGiven) {
    throw scimErrors.invalidValue(
      'Send either "startIndex" (index paging) or "cursor" (cursor paging), not both.',
    );
  }
  const { maxPageSize, defaultPageSize } = context.config;
  const asked = params.countGiven;
  if (asked !== undefined && asked > maxPageSize) {
    throw scimErrors.invalidCount(
      `"count" must be between 0 and ${maxPageSize} for cursor paging; got ${asked}.`,
    );
  }
  const count = asked === undefined ? defaultPageSize : Math.max(0, asked);
  const binding = bindingOf(context, params);
  if (cursor === '') return { seek: {}, count, binding, settings };
  const state = await settings.codec.decode(cursor, binding);
  const age = seconds(settings.now()) - state.issuedAt;
  if (settings.timeoutSeconds > 0 && age > settings.timeoutSeconds) {
    throw scimErrors.expiredCursor(
      `The cursor has expired: cursors are valid for ${settings.timeoutSeconds} seconds ` +
        '(cursorTimeout in /ServiceProviderConfig). Start again with an empty cursor.',
    );
  }
  if (state.count !== count) {
    throw scimErrors.invalidCount(
      `"count" must stay ${state.count}, the count of the query this cursor belongs to; got ${count}.`,
    );
  }
  const seek: ListSeek = state.from
    ? { from: state.from, direction: state.direction }
    : { direction: state.direction };
  return { seek, count, binding, settings };
}

/**
 * Builds the `nextCursor` and `previousCursor` of a cursor page. `nextCursor` is left out only
 * on the last page; `previousCursor` is never on the first page (an empty cursor) and not on a
 * page with nothing before it. A page of `count` 0 has neither (it only counts).
 *
 * @see RFC 9865 §2
 */
export async function cursorMembers(
  request: CursorRequest,
  page: ResourcePage,
): Promise<CursorMembers> {
  const members: CursorMembers = {};
  if (request.count === 0) return members;
  const seek = page.seek ?? { more: false };
  const backward = request.seek.direction === 'backward';
  const make = (direction: CursorState['direction'], from: ListPosition | undefined) =>
    request.settings.codec.encode(
      {
        ...(from && { from }),
        direction,
        count: request.count,
        issuedAt: seconds(request.settings.now()),
      },
      request.binding,
    );
  // Forward: more after the page. Backward: the page ends before the place it was read from,
  // so something (at least that place) follows; an empty one leads back to the first page.
  if (seek.last) {
    if (backward || seek.more) members.nextCursor = await make('forward', seek.last);
  } else if (backward) {
    members.nextCursor = await make('forward', undefined);
  }
  // Forward from a place: the page follows something; an empty one (everything after the
  // place is gone) leads back to the last page. Backward: only when more precede the page.
  if (backward ? seek.more : request.seek.from !== undefined) {
    members.previousCursor = await make('backward', seek.first);
  }
  return members;
}
