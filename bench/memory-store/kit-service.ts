/**
 * A scimkit service on a memory store as the shared kit's servers run it
 * (`bench/kit/servers/service.mjs`), and the kit's users, created through `scim.handle` POSTs
 * (the kit's preseed path, without HTTP) or, faster, straight into the store.
 */
import { newId } from '../../src/core/resources/new-id.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { FIRST_VERSION } from '../../src/schema/version.js';
import { MemoryUserStore, type MemoryUserStoreOptions } from '../../src/stores/memory/index.js';
import { ACCOUNT_SCHEMA, USER_SCHEMA } from '../../src/schema/urns.js';

export const PREFIX = '/api/v1/scim/v2';
export const TENANT = 'bench';
export const BASE_URL = 'http://127.0.0.1:3000';
export const HEADERS = { authorization: 'Bearer bench-token', accept: 'application/scim+json' };

/**
 * The service, its store (with `options`, the kit's defaults when none), and `create(i)`, which
 * adds the kit's i-th user and returns it.
 */
export function kitService(options: MemoryUserStoreOptions = {}) {
  const store = new MemoryUserStore(options);
  const scim = createScim({
    store,
    verifier: staticApiKeys([{ key: 'bench-token', tenant: TENANT }]),
    mailer: { sendWelcome: async () => undefined },
    basePath: PREFIX,
    userNameRule: 'email',
  });
  async function create(i: number): Promise<{ id: string; userName: string }> {
    const response = await scim.handle({
      method: 'POST',
      path: `${PREFIX}/Users`,
      headers: { ...HEADERS, 'content-type': 'application/scim+json' },
      // The body the kit sends (http-bench.mjs userBody, service.mjs preseed).
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `p-${i}@example.com`,
        active: true,
        name: { givenName: `Given${i}`, familyName: `Family${i}` },
      }),
      baseUrl: BASE_URL,
    });
    if (response.status !== 201) throw new Error(`HTTP ${response.status} ${response.body}`);
    return JSON.parse(response.body as string) as { id: string; userName: string };
  }
  /**
   * Adds the kit's i-th user straight to the store, laid out as the core stores it, without its
   * welcome email: a few microseconds instead of a whole request, for building a million users.
   * The id is flat, as the core's ids are once its response was serialised.
   */
  async function add(i: number): Promise<{ id: string; userName: string }> {
    const now = new Date().toISOString();
    const user = {
      schemas: [USER_SCHEMA, ACCOUNT_SCHEMA],
      id: JSON.parse(JSON.stringify(newId())) as string,
      userName: `p-${i}@example.com`,
      active: true,
      name: { givenName: `Given${i}`, familyName: `Family${i}` },
      [ACCOUNT_SCHEMA]: Object.freeze({ status: 'Invited', invitedAt: now }),
      meta: Object.freeze({
        resourceType: 'User',
        created: now,
        lastModified: now,
        version: FIRST_VERSION,
      }),
    } as ScimUser;
    await store.create(TENANT, user);
    return user;
  }
  return { scim, store, create, add };
}
