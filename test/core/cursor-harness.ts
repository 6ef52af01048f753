import type { ScimOptions } from '../../src/index.js';
import { setup, type Reply } from './harness.js';

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

  return { ...ctx, page, walk };
}
