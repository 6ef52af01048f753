import {
  createScim,
  staticApiKeys,
  type Scim,
  type ScimOptions,
  type ScimResponse,
  type WelcomeEmail,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

export const BASE = '/api/v1/scim/v2';
export const ORIGIN = 'https://scim.example.org';
export const KEY_A = 'key-tenant-a';
export const KEY_B = 'key-tenant-b';
export const SCIM_JSON = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';

/** A parsed response: status, headers and the JSON body (or undefined). */
export interface Reply {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Options of one request. */
export interface Send {
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
  query?: string;
}

/** Counts the `user.invited` events (welcome emails asked for) of a tenant's log. */
export async function invitations(store: MemoryUserStore, tenant = 'tenant-a'): Promise<number> {
  const page = await store.events?.list({ tenant, types: ['user.invited'], limit: 1000 });
  return page?.events.length ?? 0;
}

/** A SCIM service on a fresh memory store, with a mailer that records what it sends. */
export function setup(overrides: Partial<ScimOptions> = {}) {
  const store = new MemoryUserStore();
  const sent: WelcomeEmail[] = [];
  const scim: Scim = createScim({
    store,
    verifier: staticApiKeys([
      { key: KEY_A, tenant: 'tenant-a' },
      { key: KEY_B, tenant: 'tenant-b' },
    ]),
    // A mail group given replaces the recording mailer (`mail: {}`: none).
    ...(overrides.mail === undefined
      ? {
          mailer: {
            async sendWelcome(email: WelcomeEmail) {
              sent.push(email);
            },
          },
        }
      : {}),
    basePath: BASE,
    ...overrides,
  });

  async function request(method: string, path: string, options: Send = {}): Promise<Reply> {
    const headers: Record<string, string> = { accept: SCIM_JSON, ...options.headers };
    const key = options.key === undefined ? KEY_A : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= SCIM_JSON;
    }
    const response: ScimResponse = await scim.handle({
      method,
      path: `${BASE}${path}`,
      query: options.query ?? '',
      headers,
      body,
      baseUrl: ORIGIN,
    });
    return {
      status: response.status,
      headers: response.headers,
      body: response.body === undefined ? undefined : JSON.parse(response.body),
    };
  }

  async function createUser(userName: string, extra: Record<string, unknown> = {}, key?: string) {
    const reply = await request('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        ...extra,
      },
      ...(key === undefined ? {} : { key }),
    });
    if (reply.status !== 201) throw new Error(`create failed: ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  /** Every user of tenant A, read back through the API. */
  async function allUsers(key = KEY_A) {
    const reply = await request('GET', '/Users', { query: 'count=100', key });
    return reply.body.Resources as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  return { scim, store, sent, request, createUser, allUsers };
}

export function patchBody(...operations: Array<Record<string, unknown>>) {
  return { schemas: [PATCH_SCHEMA], Operations: operations };
}
