import { expect } from 'vitest';

/** The SCIM media type every response carries. */
export const SCIM_JSON = 'application/scim+json';
/** The RFC 7644 §3.12 error schema. */
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
/** The core User schema. */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
/** The PatchOp message schema. */
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** One HTTP exchange as a test reads it. */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, or `undefined` when it was empty. */
  readonly json: Record<string, unknown> | undefined;
}

/** What {@link ScimClient.send} can vary. */
export interface SendOptions {
  readonly body?: unknown;
  /** `null` sends no authorization header. */
  readonly token?: string | null;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A tiny SCIM client over global fetch, bound to one mount URL and one API key. */
export class ScimClient {
  constructor(
    private readonly url: () => string,
    private readonly token: string,
  ) {}

  /** Sends one request; an object body is serialised, a string body is sent as it is. */
  async send(method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? SCIM_JSON;
    }
    const response = await fetch(this.url() + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    const json = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
    return { status: response.status, headers: response.headers, text, json };
  }

  /** Creates a user and returns the 201 reply. */
  async createUser(userName: string, extra: Record<string, unknown> = {}): Promise<Reply> {
    const reply = await this.send('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        ...extra,
      },
    });
    expect(reply.status).toBe(201);
    return reply;
  }

  /** Counts the users whose userName is `userName`, through the filter. */
  async countByUserName(userName: string): Promise<number> {
    const reply = await this.send(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
    );
    expect(reply.status).toBe(200);
    return reply.json?.totalResults as number;
  }
}

/** Asserts that a reply is `application/scim+json` (parameters such as `charset` allowed). */
export function expectScimJson(reply: Reply): void {
  expect(reply.headers.get('content-type')?.split(';')[0]?.trim()).toBe(SCIM_JSON);
}

/** Asserts a SCIM error response per DESIGN.md §6 and RFC 7644 §3.12. */
export function expectScimError(reply: Reply, status: number, scimType?: string): void {
  expect(reply.status).toBe(status);
  expectScimJson(reply);
  expect(reply.json?.schemas).toEqual([ERROR_SCHEMA]);
  expect(reply.json?.status).toBe(String(status));
  expect(typeof reply.json?.detail).toBe('string');
  if (scimType !== undefined) expect(reply.json?.scimType).toBe(scimType);
}

/** The core Group schema. */
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** One entry of a group's `members` or of a user's `groups`, as the server answers it. */
export interface Reference {
  readonly value: string;
  readonly $ref?: string;
  readonly display?: string;
  readonly type?: string;
}

/** A PatchOp message carrying these operations. */
export function patchOp(...operations: Record<string, unknown>[]): Record<string, unknown> {
  return { schemas: [PATCH_SCHEMA], Operations: operations };
}

/** Creates a group holding these member ids and returns the 201 reply. */
export async function createGroup(
  client: ScimClient,
  displayName: string,
  memberIds: readonly string[] = [],
): Promise<Reply> {
  const reply = await client.send('POST', '/Groups', {
    body: {
      schemas: [GROUP_SCHEMA],
      displayName,
      members: memberIds.map((value) => ({ value })),
    },
  });
  expect(reply.status, reply.text).toBe(201);
  return reply;
}

/** PATCHes a group with these operations, expecting the group PATCH's 204 with an ETag. */
export async function patchGroup(
  client: ScimClient,
  groupId: string,
  ...operations: Record<string, unknown>[]
): Promise<Reply> {
  const reply = await client.send('PATCH', `/Groups/${groupId}`, { body: patchOp(...operations) });
  expect(reply.status, reply.text).toBe(204);
  expect(reply.headers.get('etag')).toMatch(/^W\/"/);
  return reply;
}

/** The ids of a group's members, sorted, read with GET /Groups/{id}. */
export async function memberIdsOf(client: ScimClient, groupId: string): Promise<string[]> {
  const reply = await client.send('GET', `/Groups/${groupId}`);
  expect(reply.status, reply.text).toBe(200);
  return ((reply.json?.members ?? []) as Reference[]).map((m) => m.value).sort();
}

/** A user's readOnly `groups`, read with GET /Users/{id} (`[]` when absent). */
export async function groupsOfUser(client: ScimClient, userId: string): Promise<Reference[]> {
  const reply = await client.send('GET', `/Users/${userId}`);
  expect(reply.status, reply.text).toBe(200);
  return (reply.json?.groups ?? []) as Reference[];
}

/** The ids of the users `GET /Users?filter=groups[value eq "<groupId>"]` lists, sorted. */
export async function usersInGroup(client: ScimClient, groupId: string): Promise<string[]> {
  const filter = encodeURIComponent(`groups[value eq "${groupId}"]`);
  const reply = await client.send('GET', `/Users?filter=${filter}&count=100`);
  expect(reply.status, reply.text).toBe(200);
  return ((reply.json?.Resources ?? []) as { id: string }[]).map((u) => u.id).sort();
}
