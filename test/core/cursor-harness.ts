import { expect } from 'vitest';
import { staticApiKeys, type ScimOptions, type UserStore } from '../../src/index.js';
import { KEY_A, setup, type Reply } from './harness.js';

export { KEY_B } from './harness.js';

/** The SearchRequest schema URN. */
export const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/** One cursor page: the reply, its body, and the ids and userNames on it. */
export interface CursorPage {
  readonly body: Reply['body'];
  readonly userNames: string[];
  readonly ids: string[];
}

/** The most pages a walk reads before it fails: a walk never loops. */
const MAX_PAGES = 200;

/**
 * A service from `setup`, with helpers that page through GET `endpoint` (default `/Users`) by
 * cursor.
 */
export function setupCursors(overrides: Partial<ScimOptions> = {}, endpoint = '/Users') {
  const ctx = setup(overrides);

  /** Reads the page of `cursor` (first page: `''`) for `query` (without the cursor). */
  async function page(query: string, cursor = ''): Promise<CursorPage> {
    const reply = await ctx.request('GET', endpoint, {
      query: `${query}&cursor=${encodeURIComponent(cursor)}`,
    });
    if (reply.status !== 200) throw new Error(`page failed: ${JSON.stringify(reply.body)}`);
    const resources = reply.body.Resources as { id: string; userName: string }[];
    return {
      body: reply.body,
      userNames: resources.map((r) => r.userName),
      ids: resources.map((r) => r.id),
    };
  }

  /**
   * Follows nextCursor from the first page to the last; `between` runs after each page (to
   * write while the walk goes on).
   */
  async function walk(query: string, between?: (index: number) => Promise<void>) {
    const pages: CursorPage[] = [];
    let cursor: string | undefined = '';
    while (cursor !== undefined) {
      if (pages.length >= MAX_PAGES) throw new Error('the walk does not end');
      const next = await page(query, cursor);
      pages.push(next);
      cursor = next.body.nextCursor;
      if (between) await between(pages.length - 1);
    }
    return pages;
  }

  /**
   * Walks every page of `query` forward, then follows previousCursor from the last page back
   * to the first; `between` runs before each page read backward (to write meanwhile). Returns
   * the last page and the pages read backward.
   */
  async function walkBack(query: string, between?: () => Promise<void>) {
    const forward = await walk(query);
    const pages: CursorPage[] = [forward[forward.length - 1] as CursorPage];
    for (let cursor = pages[0]?.body.previousCursor; cursor !== undefined;) {
      if (pages.length >= MAX_PAGES) throw new Error('the walk back does not end');
      if (between) await between();
      const next = await page(query, cursor);
      pages.push(next);
      cursor = next.body.previousCursor;
    }
    return pages;
  }

  return { ...ctx, page, walk, walkBack };
}

/** A letter from a number, so the names of new resources fall anywhere in a sorted order. */
export const letter = (n: number) => String.fromCharCode(97 + ((n * 7) % 26));

/** Every resource of `stable` is on exactly one page, and no resource is on two. */
export function expectEachOnce(pages: readonly CursorPage[], stable: ReadonlySet<string>) {
  const seen = new Map<string, number>();
  for (const page of pages) for (const id of page.ids) seen.set(id, (seen.get(id) ?? 0) + 1);
  const repeated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  expect(repeated, 'seen twice').toEqual([]);
  const missed = [...stable].filter((id) => !seen.has(id));
  expect(missed, 'present throughout, yet on no page').toEqual([]);
}

let tenants = 0;

/**
 * A cursor service (see `setupCursors`) on `store`, shared by a file's tests, in a tenant of
 * its own.
 */
export function setupCursorsOn(store: UserStore, endpoint = '/Users') {
  tenants += 1;
  const tenant = `cursor-${tenants}-${Date.now()}`;
  const verifier = staticApiKeys([{ key: KEY_A, tenant }]);
  return setupCursors({ store, verifier, onError: () => undefined }, endpoint);
}
