/**
 * The workload both Bulk benchmarks measure (`bulk.bench.ts` by wall clock, `instructions.ts`
 * by instruction count): a fresh in-process service on the memory store, N user creates, then
 * one PATCH of each user (and, in `instructions.ts`, one PUT and one DELETE of each), sent one
 * by one or in one `/Bulk` request.
 */
import { createScim, staticApiKeys, type Scim } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };

/** A fresh service: memory store, one key, a mailer that sends nothing. */
export function service(): Scim {
  return createScim({
    store: new MemoryUserStore(),
    verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
    mailer: { sendWelcome: async () => {} },
  });
}

/** The body of the i-th user created. */
export const userBody = (i: number) => ({
  schemas: [USER],
  userName: `user${i}@example.org`,
  active: false,
});

/** The body of the PUT the i-th user receives: its userName, a display name, a title. */
export const putBody = (i: number) => ({
  ...userBody(i),
  displayName: `User ${i}`,
  title: 'P',
});

/** The PATCH each user receives. */
export const patchBody = {
  schemas: [PATCH],
  Operations: [{ op: 'replace', path: 'title', value: 'T' }],
};

/** Sends one request in process, its body as JSON text. */
export const send = (scim: Scim, method: string, path: string, body: unknown) =>
  scim.handle({ method, path, headers, body: JSON.stringify(body), baseUrl: 'http://x' });
