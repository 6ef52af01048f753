import { isSettled } from '../../json/settled-json.js';
import type { Projector } from '../../schema/project-resource.js';
import { LIST_RESPONSE_SCHEMA } from '../../schema/urns.js';
import type { StoredResource } from '../handlers/resource-endpoint.js';

/*
 * The serialiser of resource responses: the one place where a response body is written by
 * anything but a plain `JSON.stringify` of the object it shows (a speed device behind a
 * named seam). Every function here is held, by the property tests of
 * test/core/response-json.test.ts, to the plain serialisation of the plain object it names.
 * What each device buys is measured by the instruction and allocation counts of `bench/http`.
 * Error, discovery and bulk bodies are plain `JSON.stringify` (`jsonResponse` in respond.ts).
 */

/** Returns a resource with the request-dependent `meta.location` added, leaving it as it is. */
export function withLocation<R extends StoredResource>(resource: R, url: string): R {
  return { ...resource, meta: { ...resource.meta, location: `${url}/${resource.id}` } };
}

/**
 * Serialises a resource with its request-dependent `meta.location`: the same text as
 * `JSON.stringify(withLocation(resource, url))`. When `meta` is the resource's last member, as
 * in every resource the core builds, the location is written into the text instead of into a
 * copy: no object is copied to answer a read.
 */
export function locatedJson(resource: StoredResource, url: string): string {
  const { meta } = resource;
  const plain = !hasToJson(resource) && !hasToJson(meta);
  if (!plain || meta.location !== undefined || lastKey(resource) !== 'meta')
    return JSON.stringify(withLocation(resource, url));
  const json = JSON.stringify(resource);
  // `{...,"meta":{...}}`: the location goes in before meta's closing brace.
  const head = json.slice(0, -2);
  const separator = head.endsWith('{') ? '' : ',';
  const location = JSON.stringify(`${url}/${resource.id}`);
  // Joined, not concatenated: V8 keeps a concatenation as a tree of its pieces (the whole
  // serialisation among them) until something reads it whole; a kept text takes 1.45 times
  // its size that way (see SettledTexts).
  return [head, separator, '"location":', location, '}}'].join('');
}

/**
 * The text of {@link locatedJson} kept for each settled resource that reads keep asking for,
 * so the next read of the same version is answered without serialising anything. Settled is
 * the rule of src/json/settled-json.ts (`isSettled`: deeply frozen JSON data, data members
 * only): nothing can change what such a value serialises to, so the text kept for it is its
 * text for as long as it lives. The memory stores hand out their stored versions so, made by
 * `settledCopy` and marked, so the check costs one lookup; a host store's deeply frozen objects
 * are checked by a walk, once. An object made for one response (a user with computed `groups`,
 * a group with its members' `$ref`) is not frozen and is serialised as before.
 *
 * A text is kept from a resource's second read among the last `capacity` first reads: a first
 * read is answered as plain serialisation answers it and only remembered. So a pass over a
 * directory larger than the cache (an IdP's full sync) costs what it cost without it, instead
 * of checking and keeping texts that are gone before they are read again.
 *
 * Memory is bounded: at most `capacity` texts and `capacity` remembered first reads, the
 * oldest going first. A resource stays reachable from here until it goes, even when its store
 * has replaced it.
 */
export class SettledTexts {
  readonly #texts = new Map<object, { url: string; text: string }>();
  readonly #kept: RecentObjects;
  readonly #once = new Set<object>();
  readonly #readOnce: RecentObjects;

  /** @param capacity - the most resources whose text is kept at once. */
  constructor(readonly capacity: number) {
    this.#kept = new RecentObjects(capacity, (gone) => this.#texts.delete(gone));
    this.#readOnce = new RecentObjects(capacity, (gone) => this.#once.delete(gone));
  }

  /** How many resources have their text kept. */
  get size(): number {
    return this.#texts.size;
  }

  /** Serialises as {@link locatedJson} does, keeping the text of a settled resource. */
  json(resource: StoredResource, url: string): string {
    const kept = this.#texts.get(resource);
    if (kept !== undefined && kept.url === url) return kept.text;
    const text = locatedJson(resource, url);
    if (kept !== undefined) {
      kept.url = url;
      kept.text = text;
    } else if (this.capacity === 0) {
      // Nothing is kept.
    } else if (!this.#once.delete(resource)) {
      this.#remember(resource);
    } else if (isSettled(resource)) {
      this.#texts.set(resource, { url, text });
      this.#kept.add(resource);
    }
    return text;
  }

  /**
   * The texts of a page's resources, each as {@link SettledTexts.json} gives it; or `undefined`
   * when every one is a first read: then each is only remembered, and the caller serialises
   * the page plainly, which for a page read once costs less than one serialisation per resource.
   */
  page(resources: readonly StoredResource[], url: string): string[] | undefined {
    if (resources.every((r) => !this.#texts.has(r) && !this.#once.has(r))) {
      if (this.capacity > 0) for (const r of resources) this.#remember(r);
      return undefined;
    }
    return resources.map((r) => this.json(r, url));
  }

  // Only a frozen resource can be settled: one made for a single response (a group with its
  // members, a user with its `groups`) is not remembered, so the cache never keeps it alive.
  #remember(resource: object): void {
    if (!Object.isFrozen(resource)) return;
    this.#once.add(resource);
    this.#readOnce.add(resource);
  }
}

// At most `capacity` objects in the order they came; `onGone` hears of each that makes room.
class RecentObjects {
  readonly #slots: (object | undefined)[];
  #next = 0;

  constructor(
    readonly capacity: number,
    readonly onGone: (gone: object) => void,
  ) {
    this.#slots = new Array<object | undefined>(capacity).fill(undefined);
  }

  add(value: object): void {
    const gone = this.#slots[this.#next];
    if (gone !== undefined) this.onGone(gone);
    this.#slots[this.#next] = value;
    this.#next = (this.#next + 1) % this.capacity;
  }
}

// A named cache, shared by every service of the process: keyed by the identity of values that
// cannot change, it needs no scoping. 16,384 texts cover the working set of a directory of
// tens of thousands of users (a user of the shared kit: ~0.5 KiB of text) in ~10 MiB at most.
const servedTextCache = new SettledTexts(16_384);

/**
 * Serialises a resource a read answers with: the same text as {@link locatedJson}, kept for
 * the next read when the resource is settled (see {@link SettledTexts}).
 */
export function servedJson(resource: StoredResource, url: string): string {
  return servedTextCache.json(resource, url);
}

/**
 * Serialises a list response: the same text as `JSON.stringify({ ...page, Resources })`, with
 * `Resources` each resource with its `meta.location` (see {@link withLocation}), shaped by
 * `project` when the request asks for a projection. Without one, the page is written around
 * the texts of its resources (see {@link servedJson}): a page of settled resources read before
 * serialises nothing but its own members; a page none of whose resources was read before is
 * serialised whole, as plain serialisation does (see {@link SettledTexts.page}).
 *
 * @param page - every member but `Resources`; it must not have one.
 */
export function listResponseJson(
  page: object,
  resources: readonly StoredResource[],
  url: string,
  project: Projector | undefined,
): string {
  if (project) {
    // Stores may hand out shared, read-only resources: the location goes on a copy.
    const shaped = resources.map((r) =>
      project(withLocation(r, url) as unknown as Record<string, unknown>),
    );
    return JSON.stringify({ ...page, Resources: shaped });
  }
  return pageOfTexts(page, resources, url, undefined);
}

/**
 * Serialises each resource of a list response as {@link listResponseJson} writes it within
 * `Resources`: with its `meta.location`, shaped by `project`. What a page too large for its
 * budget is cut from, one resource at a time.
 */
export function resourceTexts(
  resources: readonly StoredResource[],
  url: string,
  project: Projector | undefined,
): string[] {
  return resources.map((r) =>
    project
      ? JSON.stringify(project(withLocation(r, url) as unknown as Record<string, unknown>))
      : locatedJson(r, url),
  );
}

/**
 * Serialises a list response around the texts of its resources (see {@link resourceTexts}): the
 * same text as `JSON.stringify({ ...page, Resources })` of the resources they are.
 *
 * @param page - every member but `Resources`; it must not have one.
 */
export function listOfTexts(page: object, texts: readonly string[]): string {
  const members = JSON.stringify(page).slice(0, -1);
  const separator = members === '{' ? '' : ',';
  return `${members}${separator}"Resources":[${texts.join(',')}]}`;
}

/** The members of an index-paged ListResponse that are not the page's own length. */
export interface IndexPage {
  /** Every match of the query, on every page. */
  readonly totalResults: number;
  /** The 1-based index of the page's first resource. */
  readonly startIndex: number;
}

// What every index-paged ListResponse starts with.
const INDEX_PAGE_START = `{"schemas":${JSON.stringify([LIST_RESPONSE_SCHEMA])},"totalResults":`;

/**
 * Serialises an index-paged ListResponse (every list but an RFC 9865 cursor page): the same text
 * as {@link listResponseJson} of `{ schemas: [ListResponse], totalResults, itemsPerPage,
 * startIndex }`, `itemsPerPage` being the number of `resources`. Those members are a constant
 * and three integers, so they are written out instead of being walked by `JSON.stringify`, a walk
 * that is a large share of what a short list (a filter that finds one user) costs to write.
 *
 * @see RFC 7644 §3.4.2
 */
export function indexPageJson(
  page: IndexPage,
  resources: readonly StoredResource[],
  url: string,
  project: Projector | undefined,
): string {
  const { totalResults, startIndex } = page;
  const itemsPerPage = resources.length;
  const members = { schemas: [LIST_RESPONSE_SCHEMA], totalResults, itemsPerPage, startIndex };
  // An integer is written as JSON.stringify writes it; anything else is left to it.
  if (project || !Number.isSafeInteger(totalResults) || !Number.isSafeInteger(startIndex))
    return listResponseJson(members, resources, url, project);
  const head = `${INDEX_PAGE_START}${totalResults},"itemsPerPage":${itemsPerPage},"startIndex":${startIndex}`;
  return pageOfTexts(members, resources, url, head);
}

// The page written around the texts of its resources (see SettledTexts.page); `head`: the page's
// members as JSON.stringify writes them, without the closing brace, when the caller has it.
function pageOfTexts(
  page: object,
  resources: readonly StoredResource[],
  url: string,
  head: string | undefined,
): string {
  const texts = servedTextCache.page(resources, url);
  if (texts === undefined)
    return JSON.stringify({ ...page, Resources: resources.map((r) => withLocation(r, url)) });
  const members = head ?? JSON.stringify(page).slice(0, -1);
  const separator = members === '{' ? '' : ',';
  return `${members}${separator}"Resources":[${texts.join(',')}]}`;
}

// A toJSON method would serialise the object its own way: leave such objects to JSON.stringify.
function hasToJson(value: object): boolean {
  return (value as { toJSON?: unknown }).toJSON !== undefined;
}

// The last enumerable key `for...in` visits, as JSON.stringify orders members; no array built.
function lastKey(value: object): string | undefined {
  let last: string | undefined;
  for (const key in value) last = key;
  return last;
}
