import { request } from 'node:http';
import { expect } from 'vitest';
import { USER_SCHEMA } from './contract-client.js';
import { MOUNT } from './harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const BULK_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const SEARCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/** A spoofed `Host`, `X-Forwarded-Host` and `Forwarded`, as an attacker would send them. */
export const SPOOFED = {
  host: 'evil-host.example',
  'x-forwarded-host': 'evil-forwarded.example',
  'x-forwarded-proto': 'gopher',
  forwarded: 'host=evil-rfc7239.example;proto=gopher',
};

/** Whether `text` names any of the {@link SPOOFED} hosts or schemes. */
export function showsSpoofedHost(text: string): boolean {
  return /evil-|gopher/i.test(text);
}

/** One answer: its status, headers and body as text. */
export interface SpoofedReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * Sends one request to `origin` with the {@link SPOOFED} headers (global `fetch` cannot set
 * `Host`). `target` is sent as it is: an origin-form path, or an absolute-form URL.
 */
export function sendSpoofed(
  origin: string,
  method: string,
  target: string,
  headers: Readonly<Record<string, string>>,
  body?: unknown,
): Promise<SpoofedReply> {
  const { hostname, port } = new URL(origin);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port: Number(port),
        method,
        path: target,
        setHost: false,
        headers: {
          ...SPOOFED,
          ...headers,
          ...(text === undefined
            ? {}
            : {
                'content-type': 'application/scim+json',
                'content-length': Buffer.byteLength(text),
              }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Every URL a reply names: `Location`, `meta.location`, `$ref`s and Bulk `location`s. */
function urlsOf(reply: SpoofedReply): string[] {
  const found: string[] = [];
  const location = reply.headers.location;
  if (typeof location === 'string') found.push(location);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value !== 'object' || value === null) return;
    for (const [name, inner] of Object.entries(value)) {
      if ((name === 'location' || name === '$ref') && typeof inner === 'string') found.push(inner);
      else walk(inner);
    }
  };
  if (reply.text !== '') walk(JSON.parse(reply.text));
  return found;
}

/**
 * Runs every kind of request that names URLs, each with the {@link SPOOFED} headers, against the
 * service mounted at {@link MOUNT} on `origin` (with groups, and `/Me` reading the user id from
 * `x-me`), and returns the answers.
 */
export async function spoofedExchanges(
  origin: string,
  key: string,
  tag: string,
): Promise<SpoofedReply[]> {
  const auth = { authorization: `Bearer ${key}` };
  const replies: SpoofedReply[] = [];
  const send = async (method: string, path: string, body?: unknown, extra = {}) => {
    const reply = await sendSpoofed(origin, method, `${MOUNT}${path}`, { ...auth, ...extra }, body);
    replies.push(reply);
    return reply;
  };
  const created = await send('POST', '/Users', {
    schemas: [USER_SCHEMA],
    userName: `ada-${tag}@example.org`,
  });
  expect(created.status).toBe(201);
  const id = (JSON.parse(created.text) as { id: string }).id;
  const group = await send('POST', '/Groups', {
    schemas: [GROUP_SCHEMA],
    displayName: `Teachers ${tag}`,
    members: [{ value: id }],
  });
  expect(group.status).toBe(201);
  const groupId = (JSON.parse(group.text) as { id: string }).id;
  expect((await send('GET', `/Users/${id}`)).status).toBe(200);
  expect((await send('GET', `/Groups/${groupId}`)).status).toBe(200);
  expect((await send('GET', '/Users')).status).toBe(200);
  expect((await send('GET', '/Groups')).status).toBe(200);
  expect((await send('GET', '/Users?cursor=&count=1')).status).toBe(200);
  expect((await send('POST', '/.search', { schemas: [SEARCH_SCHEMA] })).status).toBe(200);
  expect((await send('GET', '/Me', undefined, { 'x-me': id })).status).toBe(200);
  const bulk = await send('POST', '/Bulk', {
    schemas: [BULK_SCHEMA],
    Operations: [
      {
        method: 'POST',
        path: '/Users',
        bulkId: 'bob',
        data: { schemas: [USER_SCHEMA], userName: `bob-${tag}@example.org` },
      },
      { method: 'PUT', path: `/Users/${id}`, data: { userName: `ada-${tag}@example.org` } },
    ],
  });
  expect(bulk.status).toBe(200);
  for (const path of ['/ServiceProviderConfig', '/ResourceTypes', '/Schemas', '/Schemas/x']) {
    await send('GET', path);
  }
  // An absolute-form target names a host of its own (RFC 9112 §3.2.2): that one is not trusted either.
  replies.push(
    await sendSpoofed(origin, 'GET', `http://evil-target.example${MOUNT}/Users/${id}`, auth),
  );
  return replies;
}

/** Asserts that every URL of `replies` starts with `base`, and no spoofed host shows anywhere. */
export function expectOnlyPublicUrls(replies: readonly SpoofedReply[], base: string): void {
  const urls = replies.flatMap(urlsOf);
  // Every kind of URL was there to check: Location, meta.location, members' and groups' $ref.
  expect(urls.length).toBeGreaterThan(20);
  for (const url of urls) expect(url.startsWith(`${base}/`), url).toBe(true);
  for (const reply of replies) {
    expect(showsSpoofedHost(reply.text)).toBe(false);
    expect(showsSpoofedHost(JSON.stringify(reply.headers))).toBe(false);
  }
}
